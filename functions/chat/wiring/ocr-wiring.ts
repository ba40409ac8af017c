/**
 * The OCR engine: the local process passes tesseract.js; on AWS, Textract with the SNS completion
 * channel from the environment (set with the `ocr:start` grant). Its own module, so only functions
 * that start or read OCR bundle the Textract client.
 */
import { TextractClient } from '@aws-sdk/client-textract';
import { TextractOcrEngine } from '../adapters/textract-ocr-engine';
import { ENV } from '../../platform/env';
import type { OcrEngine } from '../../conversations/ports/file-ports';
import type { WiringOptions } from '../../platform/wiring/core-wiring';

/** The file pipeline's wiring seams: the OCR engine. */
export interface FileWiringOptions extends WiringOptions {
  /** The local process's OCR engine (tesseract.js); on AWS Textract, built from the environment. */
  readonly ocr?: OcrEngine;
}

export function buildOcrEngine(opts: FileWiringOptions): OcrEngine {
  if (opts.ocr) return opts.ocr;
  const env = opts.env;
  return new TextractOcrEngine(new TextractClient({ region: opts.aws?.region }), {
    bucket: env[ENV.bucketName],
    // Only `ocr:start` sets these; a function with `ocr:read` alone never starts a job.
    topicArn: env[ENV.ocrTopicArn] ?? '',
    roleArn: env[ENV.ocrRoleArn] ?? '',
  });
}
