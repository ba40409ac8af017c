import { findStoredResponse } from '../app/stored-responses';
import { replayedResponseStream, type ResponseObject } from './responses-presenters';
import { RESPONSE_REQUESTS, responsesQuery } from '../openapi/response-requests';
import { httpRoute, lambdaStreamHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { chatProductionDeps, type ChatFunctionDeps } from '../wiring/chat-wiring';
import { CHAT_ROUTES } from '../chat-routes';

const SSE_HEADERS = { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' };

/**
 * GET /api/v1/responses/{response_id}: a stored response of the key's app, as it was answered. With
 * `stream=true` it is sent again as the events of its stream, from after `starting_after` when given.
 */
export const createHandler = (deps: ChatFunctionDeps) =>
  httpRoute(CHAT_ROUTES.responsesGet, deps, async (req) => {
    const { path, query } = await readRequest(RESPONSE_REQUESTS.responsesGet, req, { queryPolicy: responsesQuery(['include[]']) });
    const stored = await findStoredResponse(deps, req.chat!.app.id, path.response_id);
    const body = stored.body as unknown as ResponseObject;
    if (query.stream) return { status: 200, headers: SSE_HEADERS, stream: replayedResponseStream(body, query.starting_after ?? -1) };
    return { status: 200, body };
  });

export const handler = lambdaStreamHandler(createHandler, chatProductionDeps);
