/**
 * The OCR queue consumer: Textract's completion notices (SNS, raw delivery; locally the tesseract
 * engine's). Each notice's text is fetched and stored, and the file becomes readable by readPDF. A
 * body that is not a completion notice is poison and fails alone; a record whose storage fails is
 * reported as a partial batch failure and redelivered.
 */
import * as z from 'zod/mini';
import { recordOcrCompletion } from '../app/manage-files';
import type { OcrCompletion } from '../../conversations/app/file-ports';
import { ocrWorkerProductionDeps, type OcrWorkerDeps } from '../wiring/ocr-wiring';
import { lambdaQueueHandler, matchSchema, parseJson, sqsConsumer, type QueueHandler } from '../../kernel/workers/queue-kit';

const ocrCompletion = z.object({
  JobId: z.string().check(z.minLength(1)),
  Status: z.enum(['SUCCEEDED', 'FAILED', 'ERROR', 'PARTIAL_SUCCESS']),
  API: z.string(),
  JobTag: z.optional(z.string()),
  Timestamp: z.optional(z.number()),
  DocumentLocation: z.optional(z.object({ S3ObjectName: z.optional(z.string()), S3Bucket: z.optional(z.string()) })),
});

/** Without raw delivery, SNS wraps Textract's message (itself JSON text) in its own envelope. */
const snsEnvelope = z.object({ Type: z.literal('Notification'), Message: z.string() });

/** The notice in a record: the raw Textract message, or the one inside an SNS envelope. */
export function parseOcrNotice(body: string): OcrCompletion {
  const value = parseJson(body, z.unknown());
  const envelope = snsEnvelope.safeParse(value);
  return envelope.success ? parseJson(envelope.data.Message, ocrCompletion) : matchSchema(value, ocrCompletion);
}

export const createHandler = (deps: OcrWorkerDeps): QueueHandler =>
  sqsConsumer(deps, {
    name: 'OCR notice',
    concurrent: true,
    parse: parseOcrNotice,
    handle: async (notice) => {
      const outcome = await recordOcrCompletion(deps, notice);
      deps.logger.info('OCR notice handled', { jobId: notice.JobId, fileId: notice.JobTag, outcome });
    },
  });

export const handler = lambdaQueueHandler(createHandler, ocrWorkerProductionDeps);
