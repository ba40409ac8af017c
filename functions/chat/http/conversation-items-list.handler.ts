import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { CONVERSATION_REQUESTS } from '../openapi/conversation-api-requests';
import { conversationApiProductionDeps, type ConversationFunctionDeps } from '../wiring/conversation-api-wiring';
import { CHAT_ROUTES } from '../chat-routes';
import { listConversationItems } from '../app/manage-conversations';
import { itemsPage } from '../domain/conversation-items';

/** GET /api/v1/conversations/{conversation_id}/items: a page of the transcript as items, newest first unless `order=asc`. */
export const createHandler = (deps: ConversationFunctionDeps) =>
  httpRoute(CHAT_ROUTES.conversationItemsList, deps, async (req) => {
    const { path, query } = await readRequest(CONVERSATION_REQUESTS.conversationItemsList, req);
    const items = await listConversationItems(deps, { appId: req.chat!.app.id, conversationId: path.conversation_id });
    const page = itemsPage(items, { limit: query.limit ?? 20, order: query.order ?? 'desc', ...(query.after !== undefined ? { after: query.after } : {}) });
    return { status: 200, body: page };
  });

export const handler = lambdaHandler(createHandler, conversationApiProductionDeps);
