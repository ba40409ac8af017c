import { deleteStoredResponse } from '../app/stored-responses';
import { RESPONSE_REQUESTS, responsesQuery } from '../openapi/response-requests';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { storedResponseProductionDeps, type StoredResponseFunctionDeps } from '../wiring/stored-responses-wiring';
import { CHAT_ROUTES } from '../chat-routes';

/**
 * DELETE /api/v1/responses/{response_id}: the response leaves these routes; its session, its messages
 * and the org export stay as the spec's deletion rules keep them (a session is deleted as a session).
 */
export const createHandler = (deps: StoredResponseFunctionDeps) =>
  httpRoute(CHAT_ROUTES.responsesDelete, deps, async (req) => {
    const { path } = await readRequest(RESPONSE_REQUESTS.responsesDelete, req, { queryPolicy: responsesQuery([]) });
    await deleteStoredResponse(deps, req.chat!.app.id, path.response_id);
    return { status: 200, body: { id: path.response_id, object: 'response', deleted: true } };
  });

export const handler = lambdaHandler(createHandler, storedResponseProductionDeps);
