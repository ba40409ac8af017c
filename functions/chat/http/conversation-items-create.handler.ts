import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { CONVERSATION_REQUESTS } from '../openapi/conversation-api-requests';
import { conversationApiProductionDeps, type ConversationFunctionDeps } from '../wiring/conversation-api-wiring';
import { CHAT_ROUTES } from '../chat-routes';
import { addConversationItems } from '../app/manage-conversations';
import { itemListView } from './conversation-presenters';

/** POST /api/v1/conversations/{conversation_id}/items: appends items to the transcript under the session's turn lease; no model, no billing. */
export const createHandler = (deps: ConversationFunctionDeps) =>
  httpRoute(CHAT_ROUTES.conversationItemsCreate, deps, async (req) => {
    const { path, body } = await readRequest(CONVERSATION_REQUESTS.conversationItemsCreate, req);
    const added = await addConversationItems(deps, { appId: req.chat!.app.id, conversationId: path.conversation_id, items: body.items });
    return { status: 200, body: itemListView(added) };
  });

export const handler = lambdaHandler(createHandler, conversationApiProductionDeps);
