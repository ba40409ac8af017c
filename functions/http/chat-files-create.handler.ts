import { MAX_UPLOAD_LABEL, uploadFile } from '../app/upload-file';
import { requestFingerprint, sha256Hex } from '../domain/digest';
import { badRequest, BusyError, DomainError } from '../domain/errors';
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

    // Idempotency-Key (docs/adr/0023): decided once the bytes are in, before anything is written.
    const idempotencyKey = req.header('idempotency-key');
    let scope: string | undefined;
    if (idempotencyKey !== undefined) {
      if (idempotencyKey.length < 1 || idempotencyKey.length > 255) throw badRequest('Idempotency-Key must be 1 to 255 characters');
      scope = `files:${req.chat!.keyId}:chatFilesCreate:${idempotencyKey}`;
      const fingerprint = requestFingerprint({ fileName: received.fileName, sha256: sha256Hex(received.bytes), sessionId: sessionId ?? null });
      const begun = await deps.idempotency.begin(scope, fingerprint, Date.now(), UPLOAD_IN_FLIGHT_MS);
      if (begun.state === 'conflict') throw new DomainError('unprocessable', 'This Idempotency-Key was used with a different request');
      if (begun.state === 'in_flight') throw new BusyError('A request with this Idempotency-Key is still running; retry when it has finished', 1);
      if (begun.state === 'replay') return { status: begun.status, headers: { 'Idempotent-Replayed': 'true' }, body: begun.body };
    }
    try {
      const file = await uploadFile(deps, { principal: req.chat!, fileName: received.fileName, bytes: received.bytes, ...(sessionId !== undefined ? { sessionId } : {}) });
      const body = uploadedFileView(file);
      if (scope) await deps.idempotency.finish(scope, { status: 201, body }).catch((err: unknown) => deps.logger.error('idempotency answer not stored', err as Error));
      return { status: 201, body };
    } catch (err) {
      // Refused or failed: nothing was recorded as ready, so a retry runs afresh.
      if (scope) await deps.idempotency.finish(scope, undefined).catch(() => undefined);
      throw err;
    }
  });

/** How long an upload may run before its Idempotency-Key counts as abandoned (the route's 120 s, with room). */
const UPLOAD_IN_FLIGHT_MS = 180_000;

export const handler = lambdaHandler(createHandler, fileProductionDeps);
