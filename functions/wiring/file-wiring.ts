/**
 * The upload route's deps (POST /chat/files; on AWS the upload service): the conversation stores (file
 * records, sessions), the bucket, file-type, the document parser and the OCR engine.
 */
import { createDocumentClient } from '../adapters/aws-clients';
import { DynamoIdempotencyStore } from '../adapters/dynamo-idempotency-store';
import type { IdempotencyStore } from '../ports/platform';
import { FileTypeSniffer } from '../adapters/file-type-sniffer';
import { PdfDocxDocumentParser } from '../adapters/pdf-docx-document-parser';
import { ENV } from '../env';
import type { ConversationPorts } from '../ports/conversations';
import type { FilePorts, OcrEngine } from '../ports/files';
import { buildConversationPorts } from './conversation-wiring';
import { buildCoreDeps, onFirstUse, type CoreDeps, type WiringOptions } from './core-wiring';
import { buildObjectStore } from './object-store-wiring';
import { buildOcrEngine } from './ocr-wiring';

/** Uploads keep their Idempotency-Key answers in the same store as chat turns and area C. */
export type FileFunctionDeps = CoreDeps & ConversationPorts & FilePorts & { readonly idempotency: IdempotencyStore };

export function buildFilePorts(opts: WiringOptions, ocr: OcrEngine = buildOcrEngine(opts)): FilePorts {
  return { objects: buildObjectStore(opts), sniffer: new FileTypeSniffer(), documents: new PdfDocxDocumentParser(), ocr };
}

export function buildFileDeps(opts: WiringOptions): FileFunctionDeps {
  const db = createDocumentClient(opts.aws ?? {});
  return {
    ...buildCoreDeps(opts, db),
    ...buildConversationPorts(db, opts.env[ENV.tableName]),
    ...buildFilePorts(opts),
    idempotency: new DynamoIdempotencyStore(db, opts.env[ENV.tableName]),
  };
}

export const fileProductionDeps = onFirstUse(buildFileDeps);
