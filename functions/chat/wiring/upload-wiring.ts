/**
 * The upload route's deps (POST /chat/files; on AWS the upload service): the conversation stores (file
 * records, sessions), the file ports with a bucket that also takes a file as it arrives, and the
 * Idempotency-Key store. A module of its own, so only the upload route bundles the streaming writers.
 */
import { createDocumentClient } from '../../kernel/adapters/aws-clients';
import { createS3Client } from '../../kernel/adapters/aws-s3-client';
import { DynamoIdempotencyStore } from '../../kernel/adapters/dynamo-idempotency-store';
import type { IdempotencyStore } from '../../kernel/app/kernel-ports';
import { ENV } from '../../kernel/env';
import { S3StreamingObjectStore } from '../../conversations/adapters/s3-streaming-object-store';
import type { ConversationPorts } from '../../conversations/app/conversation-ports';
import type { FilePorts, OcrEngine, StreamingObjectStore } from '../../conversations/app/file-ports';
import { buildConversationPorts } from '../../conversations/conversation-wiring';
import { buildCoreDeps, onFirstUse, type CoreDeps } from '../../tenancy/wiring/core-wiring';
import { buildFilePorts } from './file-wiring';
import { buildOcrEngine, type FileWiringOptions } from './ocr-wiring';

/** The upload route's file ports: its bucket also takes a file as it arrives. */
export type UploadPorts = FilePorts & { readonly objects: StreamingObjectStore };

/** Uploads keep their Idempotency-Key answers in the same store as chat turns and area C. */
export type FileFunctionDeps = CoreDeps & ConversationPorts & UploadPorts & { readonly idempotency: IdempotencyStore };

/**
 * The file ports with the upload route's bucket. A store named by its endpoint (s3rver on the local
 * platform) takes a PutObject of unknown length, so a file goes to it as one streamed request; to S3
 * as a multipart upload.
 */
export function buildUploadPorts(opts: FileWiringOptions, ocr: OcrEngine = buildOcrEngine(opts)): UploadPorts {
  const objects = new S3StreamingObjectStore(createS3Client(opts.aws ?? {}), opts.env[ENV.bucketName], opts.aws?.endpoints?.s3 !== undefined);
  return { ...buildFilePorts(opts, ocr), objects };
}

export function buildFileDeps(opts: FileWiringOptions): FileFunctionDeps {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return { ...buildCoreDeps(opts, db), ...buildConversationPorts(db, table), ...buildUploadPorts(opts), idempotency: new DynamoIdempotencyStore(db, table) };
}

export const fileProductionDeps = /* @__PURE__ */ onFirstUse(buildFileDeps);
