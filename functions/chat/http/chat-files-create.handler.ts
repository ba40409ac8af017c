import { receiveUpload } from '../app/receive-upload';
import { uploadedFileView } from '../../conversations/domain/file';
import { fileProductionDeps, type FileFunctionDeps } from '../wiring/upload-wiring';
import { claimChatRequest } from './chat-turn-route';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { FILE_REQUESTS } from '../openapi/file-requests';
import { CHAT_ROUTES } from '../chat-routes';

/**
 * POST /api/v1/chat/files: one file in a multipart part named `file`, hashed, checked and stored in one
 * pass as it arrives, and cut off as soon as it passes 20 MB. 201 `{ fileId, fileName, mimeType, size }`.
 * On AWS this route is served by the upload service behind the front door (docs/adr/0015), not by API
 * Gateway and Lambda. `X-Chat-Session-ID` optionally names the session the file is for (its consumer is recorded).
 */
export const createHandler = (deps: FileFunctionDeps) =>
  httpRoute(CHAT_ROUTES.chatFilesCreate, deps, async (req) => {
    const { headers, body: received } = await readRequest(FILE_REQUESTS.chatFilesCreate, req);
    const sessionId = headers['X-Chat-Session-ID'];
    const { fileName } = received;
    const upload = await receiveUpload(deps, { principal: req.chat!, fileName, content: received.content, ...(sessionId !== undefined ? { sessionId } : {}) });

    // Idempotency-Key (docs/adr/0023): decided once the bytes are in, before the upload is accepted.
    const request = () => ({ fileName, sha256: upload.sha256, sessionId: sessionId ?? null });
    const claim = await claimChatRequest(deps, req, {
      routeId: 'chatFilesCreate',
      key: headers['Idempotency-Key'],
      request,
      inFlightMs: UPLOAD_IN_FLIGHT_MS,
    }).catch(async (err: unknown) => {
      await upload.discard();
      throw err;
    });
    if (claim.state === 'replay') {
      await upload.discard();
      return { status: claim.status, headers: { 'Idempotent-Replayed': 'true' }, body: claim.body };
    }
    try {
      const body = uploadedFileView(await upload.accept());
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
