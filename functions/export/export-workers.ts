/**
 * The queue consumer of area A: the chunks of a bulk snapshot export. Joined by functions/workers.ts;
 * synth loads this file, so it imports only types and leaf modules.
 */
import { queueTable } from '../kernel/route-vocabulary';

export const EXPORT_QUEUES = queueTable({
  // One chunk of a bulk snapshot export a message (docs/adr/0031): up to 5,000 rows or 64 MB of NDJSON
  // written to the bucket. A few at once keeps an export from crowding the table's other readers.
  exports: {
    handler: 'export/workers/export-worker',
    batchSize: 1,
    timeoutSeconds: 300,
    maxReceiveCount: 5,
    maxConcurrency: 4,
    grants: ['table:read', 'table:write', 'bucket:write', 'exports:send'],
  },
});
