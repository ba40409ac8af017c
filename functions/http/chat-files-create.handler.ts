import { MAX_UPLOAD_LABEL, uploadFile } from '../app/upload-file';
import { badRequest } from '../domain/errors';
import { MAX_UPLOAD_BYTES, MULTIPART_OVERHEAD_BYTES, uploadedFileView } from '../domain/file';
import { fileProductionDeps, type FileFunctionDeps } from '../wiring/file-wiring';
import { httpRoute } from './kit';
import { lambdaHandler } from './lambda';
import { readSingleFile } from './multipart';

/**
 * POST /api/v1/chat/files: one file in a multipart part named `file`, read as it arrives and cut off
 * as soon as it passes 20 MB. 201 `{ fileId, fileName, mimeType, size }`. On AWS this route is served
 * by the upload service behind the front door (docs/adr/0015), not by API Gateway and Lambda.
 * `X-Chat-Session-ID` optionally names the session the file is for (its consumer is recorded).
 */
export const createHandler = (deps: FileFunctionDeps) =>
  httpRoute('chatFilesCreate', deps, async (req) => {
    const declared = Number(req.header('content-length'));
    if (Number.isFinite(declared) && declared > MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES) {
      throw badRequest(`The file is over the ${MAX_UPLOAD_LABEL} upload limit`);
    }
    const received = await readSingleFile(req.bodyStream(), req.header('content-type'), { maxFileBytes: MAX_UPLOAD_BYTES, maxFileLabel: MAX_UPLOAD_LABEL });
    const sessionId = req.header('x-chat-session-id');
    const file = await uploadFile(deps, { principal: req.chat!, fileName: received.fileName, bytes: received.bytes, ...(sessionId !== undefined ? { sessionId } : {}) });
    return { status: 201, body: uploadedFileView(file) };
  });

export const handler = lambdaHandler(createHandler, fileProductionDeps);
