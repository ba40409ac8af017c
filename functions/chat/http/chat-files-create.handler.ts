import { uploadFile } from '../app/upload-file';
import { sha256Hex } from '../../kernel/domain/digest';
import { uploadedFileView } from '../../conversations/domain/file';
import { fileProductionDeps, type FileFunctionDeps } from '../wiring/file-wiring';
import { claimChatRequest } from './chat-turn-route';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { FILE_REQUESTS } from '../openapi/file-requests';
import { CHAT_ROUTES } from '../chat-routes';

/**
 * POST /api/v1/chat/files: one file in a multipart part named `file`, read as it arrives and cut off
 * as soon as it passes 20 MB. 201 `{ fileId, fileName, mimeType, size }`. On AWS this route is served
 * by the upload service behind the front door (docs/adr/0015), not by API Gateway and Lambda.
 * `X-Chat-Session-ID` optionally names the session the file is for (its consumer is recorded).
 */
export const createHandler = (deps: FileFunctionDeps) =>
  httpRoute(CHAT_ROUTES.chatFilesCreate, deps, async (req) => {
    const { headers, body: received } = await readRequest(FILE_REQUESTS.chatFilesCreate, req);
    const sessionId = headers['X-Chat-Session-ID'];

    // Idempotency-Key (docs/adr/0023): decided once the bytes are in, before anything is written.
    const request = () => ({ fileName: received.fileName, sha256: sha256Hex(received.bytes), sessionId: sessionId ?? null });
    const key = headers['Idempotency-Key'];
    const claim = await claimChatRequest(deps, req, { routeId: 'chatFilesCreate', key, request, inFlightMs: UPLOAD_IN_FLIGHT_MS });
    if (claim.state === 'replay') return { status: claim.status, headers: { 'Idempotent-Replayed': 'true' }, body: claim.body };
    try {
      const file = await uploadFile(deps, {
        principal: req.chat!,
        fileName: received.fileName,
        bytes: received.bytes,
        ...(sessionId !== undefined ? { sessionId } : {}),
      });
      const body = uploadedFileView(file);
      await claim.remember(201, body);
      return { status: 201, body };
    } catch (err) {
      // Refused or failed: nothing was recorded as ready, so a retry runs afresh.
      await claim.forget();
      throw err;
    }
  });

/** How long an upload may run before its Idempotency-Key counts as abandoned (the route's 120 s, with room). */
const UPLOAD_IN_FLIGHT_MS = 180_000;

export const handler = lambdaHandler(createHandler, fileProductionDeps);
