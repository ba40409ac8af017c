import { findStoredResponse } from '../app/stored-responses';
import { backgroundResponseStream, replayedResponseStream } from './responses-presenters';
import type { ResponseObject } from '../domain/response-object';
import { RESPONSE_REQUESTS, responsesQuery } from '../openapi/response-requests';
import { httpRoute, lambdaStreamHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { storedResponseProductionDeps, type StoredResponseFunctionDeps } from '../wiring/stored-responses-wiring';
import { CHAT_ROUTES } from '../chat-routes';
import { SSE_HEADERS } from './turn-streams';

/**
 * GET /api/v1/responses/{response_id}: a stored response of the key's app, as it was answered. With
 * `stream=true` it is sent again as the events of its stream, from after `starting_after` when given.
 */
export const createHandler = (deps: StoredResponseFunctionDeps) =>
  httpRoute(CHAT_ROUTES.responsesGet, deps, async (req) => {
    const { path, query } = await readRequest(RESPONSE_REQUESTS.responsesGet, req, { queryPolicy: responsesQuery(['include[]']) });
    const stored = await findStoredResponse(deps, req.chat!.app.id, path.response_id);
    const body = stored.body as unknown as ResponseObject;
    if (query.stream) {
      const after = query.starting_after ?? -1;
      // A background response streams as its run goes; another is replayed as it was answered.
      const load = async () => (await deps.responses.get(stored.sessionId, stored.answerId))?.body as ResponseObject | undefined;
      const stream = body.background ? backgroundResponseStream(body, load, after) : replayedResponseStream(body, after);
      return { status: 200, headers: SSE_HEADERS, stream };
    }
    return { status: 200, body };
  });

export const handler = lambdaStreamHandler(createHandler, storedResponseProductionDeps);
