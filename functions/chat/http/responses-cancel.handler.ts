import { cancelBackgroundResponse } from '../app/stored-responses';
import { RESPONSE_REQUESTS, responsesQuery } from '../openapi/response-requests';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { storedResponseProductionDeps, type StoredResponseFunctionDeps } from '../wiring/stored-responses-wiring';
import { CHAT_ROUTES } from '../chat-routes';

/**
 * POST /api/v1/responses/{response_id}/cancel: a background response that has not finished is
 * cancelled (a run already under way still records and bills its turn); one that has is answered as it is.
 */
export const createHandler = (deps: StoredResponseFunctionDeps) =>
  httpRoute(CHAT_ROUTES.responsesCancel, deps, async (req) => {
    const { path } = await readRequest(RESPONSE_REQUESTS.responsesCancel, req, { queryPolicy: responsesQuery([]) });
    return { status: 200, body: await cancelBackgroundResponse(deps, req.chat!.app.id, path.response_id) };
  });

export const handler = lambdaHandler(createHandler, storedResponseProductionDeps);
