/**
 * The exports queue consumer: one chunk of one list of a bulk snapshot export a message (docs/adr/0031).
 * A body that is no chunk message is poison; a chunk that fails is retried by redelivery, which writes
 * the same chunk again from the same position.
 */
import { runExportChunk } from '../app/export-jobs';
import { lambdaQueueHandler, sqsConsumer, type QueueHandler } from '../../kernel/workers/queue-kit';
import { parseExportChunkMessage } from './export-chunk-message';
import { exportJobProductionDeps, type ExportJobFunctionDeps } from '../export-wiring';
import { EXPORT_QUEUES } from '../export-workers';

/** Deliveries before the dead-letter queue: the last one fails the job. */
const MAX_RECEIVES = EXPORT_QUEUES.exports.maxReceiveCount;

export const createHandler = (deps: ExportJobFunctionDeps): QueueHandler =>
  sqsConsumer(deps, {
    name: 'export-chunk',
    concurrent: false,
    parse: parseExportChunkMessage,
    // A redelivered message may be the one whose successor a crash lost: runExportChunk sends it again then.
    handle: (message, record) => {
      const receives = Number(record.attributes?.ApproximateReceiveCount ?? '1');
      return runExportChunk(deps, message, { redelivered: receives > 1, last: receives >= MAX_RECEIVES });
    },
  });

export const handler = lambdaQueueHandler(createHandler, exportJobProductionDeps);
