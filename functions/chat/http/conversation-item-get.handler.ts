import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { CONVERSATION_REQUESTS } from '../openapi/conversation-api-requests';
import { conversationApiProductionDeps, type ConversationFunctionDeps } from '../wiring/conversation-api-wiring';
import { CHAT_ROUTES } from '../chat-routes';
import { getConversationItem } from '../app/manage-conversations';

/** GET /api/v1/conversations/{conversation_id}/items/{item_id}: one item of the transcript. */
export const createHandler = (deps: ConversationFunctionDeps) =>
  httpRoute(CHAT_ROUTES.conversationItemGet, deps, async (req) => {
    const { path } = await readRequest(CONVERSATION_REQUESTS.conversationItemGet, req);
    const item = await getConversationItem(deps, { appId: req.chat!.app.id, conversationId: path.conversation_id, itemId: path.item_id });
    return { status: 200, body: item };
  });

export const handler = lambdaHandler(createHandler, conversationApiProductionDeps);
