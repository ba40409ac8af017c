/**
 * The queue consumer and scheduled job of area B: OCR completions and the file cleanup. Joined by
 * functions/workers.ts; synth loads this file, so it imports only types and leaf modules.
 */
import { queueTable, scheduleTable } from '../kernel/route-vocabulary';

export const CHAT_QUEUES = queueTable({
  // Background runs of the Responses API: one response a message, run as a chat turn (docs/adr/0051).
  responses: {
    handler: 'chat/workers/response-runner',
    batchSize: 1,
    timeoutSeconds: 300,
    maxReceiveCount: 3,
    // `responses:send`: a message that came before its response was stored is sent again, a little later.
    grants: ['table:read', 'table:write', 'model:invoke', 'bucket:read', 'responses:send'],
  },
  // Textract completions (SNS -> SQS): fetch the text and store it. Locally the tesseract engine posts the same notice.
  ocr: {
    handler: 'chat/workers/ocr-worker',
    batchSize: 5,
    timeoutSeconds: 120,
    maxReceiveCount: 5,
    source: 'textract',
    grants: ['table:read', 'table:write', 'bucket:write', 'ocr:read'],
  },
});

export const CHAT_SCHEDULES = scheduleTable({
  // Files uploaded and never referenced, and uploads a crash left pending (conversations/domain/file.ts).
  'file-cleanup': {
    handler: 'chat/workers/file-cleanup',
    expression: 'rate(1 hour)',
    timeoutSeconds: 300,
    grants: ['table:read', 'table:write', 'bucket:read', 'bucket:write'],
  },
});
