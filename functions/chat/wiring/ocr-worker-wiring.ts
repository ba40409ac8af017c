/** The OCR worker: file records, the bucket (the text it stores) and the OCR engine (its results). */
import { createDocumentClient } from '../../platform/adapters/aws-clients';
import { DynamoFileStore } from '../../conversations/adapters/dynamo-file-store';
import { ENV } from '../../platform/env';
import type { FilePorts, FileStore } from '../../conversations/ports/file-ports';
import { buildCoreDeps, onFirstUse, type CoreDeps } from '../../platform/wiring/core-wiring';
import { buildObjectStore } from '../../conversations/wiring/conversation-wiring';
import { buildOcrEngine } from './ocr-wiring';
import type { FileWiringOptions } from './ocr-wiring';

export type OcrWorkerDeps = CoreDeps & { readonly files: FileStore } & Pick<FilePorts, 'objects' | 'ocr'>;

export function buildOcrWorkerDeps(opts: FileWiringOptions): OcrWorkerDeps {
  const db = createDocumentClient(opts.aws ?? {});
  return { ...buildCoreDeps(opts, db), files: new DynamoFileStore(db, opts.env[ENV.tableName]), objects: buildObjectStore(opts), ocr: buildOcrEngine(opts) };
}

export const ocrWorkerProductionDeps = onFirstUse(buildOcrWorkerDeps);
