import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { CONVERSATION_REQUESTS } from '../openapi/conversation-api-requests';
import { conversationApiProductionDeps, type ConversationFunctionDeps } from '../wiring/conversation-api-wiring';
import { CHAT_ROUTES } from '../chat-routes';
import { deleteConversationItem } from '../app/manage-conversations';
import { conversationView } from './conversation-presenters';

/** DELETE /api/v1/conversations/{conversation_id}/items/{item_id}: removes the item from the transcript; answers the conversation, as OpenAI does. */
export const createHandler = (deps: ConversationFunctionDeps) =>
  httpRoute(CHAT_ROUTES.conversationItemDelete, deps, async (req) => {
    const { path } = await readRequest(CONVERSATION_REQUESTS.conversationItemDelete, req);
    const conversation = await deleteConversationItem(deps, { appId: req.chat!.app.id, conversationId: path.conversation_id, itemId: path.item_id });
    return { status: 200, body: conversationView(conversation) };
  });

export const handler = lambdaHandler(createHandler, conversationApiProductionDeps);
