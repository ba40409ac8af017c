/**
 * Area B's file functions that never parse a document: the OCR worker (file records, the bucket and
 * the OCR engine) and the file-cleanup job (the lifecycle deps and the bucket), and the OCR engine the
 * upload route starts too. A module apart from file-wiring.ts because the document parser and
 * file-type are not side-effect free: these bundles never carry them. Each production deps is a pure
 * declaration, so the job's bundle holds no Textract client.
 */
import { TextractClient } from '@aws-sdk/client-textract';
import { createDocumentClient } from '../../kernel/adapters/aws-clients';
import { DynamoFileStore } from '../../conversations/adapters/dynamo-file-store';
import { TextractOcrEngine } from '../adapters/textract-ocr-engine';
import { ENV } from '../../kernel/env';
import type { FilePorts, FileStore, ObjectStore, OcrEngine } from '../../conversations/app/file-ports';
import { conversationProductionDepsWith } from '../../conversations/conversation-wiring';
import { buildObjectStore } from '../../conversations/object-store-wiring';
import type { ConversationPorts } from '../../conversations/app/conversation-ports';
import { buildCoreDeps, onFirstUse, type CoreDeps, type WiringOptions } from '../../tenancy/wiring/core-wiring';

/** The file pipeline's wiring seams: the OCR engine. */
export interface FileWiringOptions extends WiringOptions {
  /** The local process's OCR engine (tesseract.js); on AWS Textract, built from the environment. */
  readonly ocr?: OcrEngine;
}

export type OcrWorkerDeps = CoreDeps & { readonly files: FileStore } & Pick<FilePorts, 'objects' | 'ocr'>;
type FileCleanupDeps = CoreDeps & ConversationPorts & { readonly objects: ObjectStore };

/** The OCR engine: the local process passes tesseract.js; on AWS, Textract with the SNS completion channel. */
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

export function buildOcrWorkerDeps(opts: FileWiringOptions): OcrWorkerDeps {
  const db = createDocumentClient(opts.aws ?? {});
  return { ...buildCoreDeps(opts, db), files: new DynamoFileStore(db, opts.env[ENV.tableName]), objects: buildObjectStore(opts), ocr: buildOcrEngine(opts) };
}

export const ocrWorkerProductionDeps = /* @__PURE__ */ onFirstUse(buildOcrWorkerDeps);
export const fileCleanupProductionDeps: () => FileCleanupDeps = /* @__PURE__ */ conversationProductionDepsWith((opts) => ({
  objects: buildObjectStore(opts),
}));
