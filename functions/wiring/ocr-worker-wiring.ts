/** The OCR worker: file records, the bucket (the text it stores) and the OCR engine (its results). */
import { createDocumentClient } from '../adapters/aws-clients';
import { DynamoFileStore } from '../adapters/dynamo-file-store';
import { ENV } from '../env';
import type { FilePorts, FileStore } from '../ports/files';
import { buildCoreDeps, onFirstUse, type CoreDeps, type WiringOptions } from './core-wiring';
import { buildObjectStore } from './object-store-wiring';
import { buildOcrEngine } from './ocr-wiring';

export type OcrWorkerDeps = CoreDeps & { readonly files: FileStore } & Pick<FilePorts, 'objects' | 'ocr'>;

export function buildOcrWorkerDeps(opts: WiringOptions): OcrWorkerDeps {
  const db = createDocumentClient(opts.aws ?? {});
  return { ...buildCoreDeps(opts, db), files: new DynamoFileStore(db, opts.env[ENV.tableName]), objects: buildObjectStore(opts), ocr: buildOcrEngine(opts) };
}

export const ocrWorkerProductionDeps = onFirstUse(buildOcrWorkerDeps);
