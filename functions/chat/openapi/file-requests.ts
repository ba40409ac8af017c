/**
 * The request of POST /api/v1/chat/files: one file in the multipart part named `file` within the
 * upload limit, and the headers the upload takes. A module of its own: the multipart reader stays out
 * of the chat-turn functions' bundles.
 */
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_LABEL, MULTIPART_OVERHEAD_BYTES } from '../../conversations/domain/file';
import { singleFileBody } from '../../kernel/http/multipart';
import { idempotencyKeyHeader, textParam } from '../../kernel/http/request-declaration';

export const FILE_REQUESTS = {
  chatFilesCreate: {
    headers: {
      'X-Chat-Session-ID': textParam({ format: 'uuid', description: "Binds the file to that session's consumer" }),
      'Idempotency-Key': idempotencyKeyHeader(
        'A retry with the same key and file gets the first answer (Idempotent-Replayed: true) and stores nothing again; another file with the same key is 422',
      ),
    },
    body: singleFileBody({
      maxFileBytes: MAX_UPLOAD_BYTES,
      maxFileLabel: MAX_UPLOAD_LABEL,
      maxRequestBytes: MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES,
      description: 'One file: PNG, JPEG, GIF, WebP, PDF or DOCX, up to 20 MiB',
    }),
  },
};
