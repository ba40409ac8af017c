/**
 * The OCR queue consumer: Textract's completion notices (SNS, raw delivery; locally the tesseract
 * engine's). Each notice's text is fetched and stored, and the file becomes readable by readPDF. A
 * record whose storage fails is reported as a partial batch failure and redelivered.
 */
import { recordOcrCompletion } from '../app/manage-files';
import type { OcrCompletion } from '../ports/files';
import { ocrWorkerProductionDeps, type OcrWorkerDeps } from '../wiring/ocr-worker-wiring';
import { lambdaQueueHandler, sqsConsumer, type QueueHandler } from './queue-kit';

/** The notice in a record: the raw Textract message, or (without raw delivery) inside an SNS envelope. */
export function parseOcrNotice(body: string): OcrCompletion {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  const notice = (parsed.Type === 'Notification' && typeof parsed.Message === 'string' ? JSON.parse(parsed.Message) : parsed) as Partial<OcrCompletion>;
  if (typeof notice.JobId !== 'string' || typeof notice.Status !== 'string') throw new Error('not a Textract completion notice');
  return notice as OcrCompletion;
}

export const createHandler = (deps: OcrWorkerDeps): QueueHandler =>
  sqsConsumer(deps, {
    name: 'OCR notice',
    concurrent: true,
    handle: async (record) => {
      const notice = parseOcrNotice(record.body);
      const outcome = await recordOcrCompletion(deps, notice);
      deps.logger.info('OCR notice handled', { jobId: notice.JobId, fileId: notice.JobTag, outcome });
    },
  });

export const handler = lambdaQueueHandler(createHandler, ocrWorkerProductionDeps);
