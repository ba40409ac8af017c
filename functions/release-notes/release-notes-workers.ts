/**
 * The queue consumer of area D: webhook deliveries. Joined by functions/workers.ts; synth loads this
 * file, so it imports only types and leaf modules.
 */
import { queueTable } from '../kernel/route-vocabulary';

export const RELEASE_NOTES_QUEUES = queueTable({
  // Deliveries of a batch run concurrently: one 10 s attempt each, plus a fan-out message that yields
  // with 15 s to spare. The retries of area D go through per-message delays, not through redrive.
  // At most 50 batches at once (500 deliveries in flight) bounds the load on the table and KMS.
  webhooks: {
    handler: 'release-notes/workers/webhooks-worker',
    batchSize: 10,
    timeoutSeconds: 60,
    maxReceiveCount: 5,
    maxConcurrency: 50,
    grants: ['table:read', 'table:write', 'webhooks:send', 'secrets:open'],
  },
});
