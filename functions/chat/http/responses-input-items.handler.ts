import { storedResponseInput } from '../app/stored-responses';
import { itemsOf, itemsPage } from '../domain/conversation-items';
import { RESPONSE_REQUESTS, responsesQuery } from '../openapi/response-requests';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { storedResponseProductionDeps, type StoredResponseFunctionDeps } from '../wiring/stored-responses-wiring';
import { CHAT_ROUTES } from '../chat-routes';

/**
 * GET /api/v1/responses/{response_id}/input_items: the items the response's request added to its
 * session, as a conversation's items are shown, in OpenAI's cursor list (newest first unless `order=asc`).
 */
export const createHandler = (deps: StoredResponseFunctionDeps) =>
  httpRoute(CHAT_ROUTES.responsesInputItems, deps, async (req) => {
    const { path, query } = await readRequest(RESPONSE_REQUESTS.responsesInputItems, req, { queryPolicy: responsesQuery(['include[]']) });
    const input = await storedResponseInput(deps, req.chat!.app.id, path.response_id);
    const page = itemsPage(itemsOf(input), {
      limit: query.limit ?? 20,
      order: query.order ?? 'desc',
      ...(query.after !== undefined ? { after: query.after } : {}),
    });
    return { status: 200, body: page };
  });

export const handler = lambdaHandler(createHandler, storedResponseProductionDeps);
