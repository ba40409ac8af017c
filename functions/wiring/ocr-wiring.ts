/**
 * The OCR engine: the local process passes tesseract.js; on AWS, Textract with the SNS completion
 * channel from the environment (set with the `ocr:start` grant). Its own module, so only functions
 * that start or read OCR bundle the Textract client.
 */
import { TextractClient } from '@aws-sdk/client-textract';
import { TextractOcrEngine } from '../adapters/textract-ocr-engine';
import { ENV } from '../env';
import type { OcrEngine } from '../ports/files';
import type { WiringOptions } from './core-wiring';

export function buildOcrEngine(opts: WiringOptions): OcrEngine {
  if (opts.ocr) return opts.ocr;
  const env = opts.env;
  return new TextractOcrEngine(new TextractClient({ region: opts.aws?.region }), {
    bucket: env[ENV.bucketName],
    // Only `ocr:start` sets these; a function with `ocr:read` alone never starts a job.
    topicArn: env[ENV.ocrTopicArn] ?? '',
    roleArn: env[ENV.ocrRoleArn] ?? '',
  });
}
