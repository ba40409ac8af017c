/**
 * The upload route's deps (POST /chat/files; on AWS the upload service): the conversation stores (file
 * records, sessions), the bucket, file-type, the document parser and the OCR engine.
 */
import { createDocumentClient } from '../../kernel/adapters/aws-clients';
import { DynamoIdempotencyStore } from '../../kernel/adapters/dynamo-idempotency-store';
import type { IdempotencyStore } from '../../kernel/app/kernel-ports';
import { FileTypeSniffer } from '../adapters/file-type-sniffer';
import { PdfDocxDocumentParser } from '../adapters/pdf-docx-document-parser';
import { ENV } from '../../kernel/env';
import type { ConversationPorts } from '../../conversations/app/conversation-ports';
import type { FilePorts, OcrEngine } from '../../conversations/app/file-ports';
import { buildConversationPorts, buildObjectStore } from '../../conversations/conversation-wiring';
import { buildCoreDeps, onFirstUse, type CoreDeps } from '../../tenancy/wiring/core-wiring';
import { buildOcrEngine, type FileWiringOptions } from './ocr-wiring';

/** Uploads keep their Idempotency-Key answers in the same store as chat turns and area C. */
export type FileFunctionDeps = CoreDeps & ConversationPorts & FilePorts & { readonly idempotency: IdempotencyStore };

export function buildFilePorts(opts: FileWiringOptions, ocr: OcrEngine = buildOcrEngine(opts)): FilePorts {
  return { objects: buildObjectStore(opts), sniffer: new FileTypeSniffer(), documents: new PdfDocxDocumentParser(), ocr };
}

export function buildFileDeps(opts: FileWiringOptions): FileFunctionDeps {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return { ...buildCoreDeps(opts, db), ...buildConversationPorts(db, table), ...buildFilePorts(opts), idempotency: new DynamoIdempotencyStore(db, table) };
}

export const fileProductionDeps = /* @__PURE__ */ onFirstUse(buildFileDeps);
