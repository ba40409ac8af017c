import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { CONVERSATION_REQUESTS } from '../openapi/conversation-api-requests';
import { conversationApiProductionDeps, type ConversationFunctionDeps } from '../wiring/conversation-api-wiring';
import { CHAT_ROUTES } from '../chat-routes';
import { updateConversation } from '../app/manage-conversations';
import { conversationView } from './conversation-presenters';

/** POST /api/v1/conversations/{conversation_id}: replaces the conversation's metadata. */
export const createHandler = (deps: ConversationFunctionDeps) =>
  httpRoute(CHAT_ROUTES.conversationUpdate, deps, async (req) => {
    const { path, body } = await readRequest(CONVERSATION_REQUESTS.conversationUpdate, req);
    const updated = await updateConversation(deps, { appId: req.chat!.app.id, conversationId: path.conversation_id, metadata: body.metadata });
    return { status: 200, body: conversationView(updated) };
  });

export const handler = lambdaHandler(createHandler, conversationApiProductionDeps);
