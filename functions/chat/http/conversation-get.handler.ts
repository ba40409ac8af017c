import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { CONVERSATION_REQUESTS } from '../openapi/conversation-api-requests';
import { conversationApiProductionDeps, type ConversationFunctionDeps } from '../wiring/conversation-api-wiring';
import { CHAT_ROUTES } from '../chat-routes';
import { getConversation } from '../app/manage-conversations';
import { conversationView } from './conversation-presenters';

/** GET /api/v1/conversations/{conversation_id}: the conversation with its metadata. */
export const createHandler = (deps: ConversationFunctionDeps) =>
  httpRoute(CHAT_ROUTES.conversationGet, deps, async (req) => {
    const { path } = await readRequest(CONVERSATION_REQUESTS.conversationGet, req);
    return { status: 200, body: conversationView(await getConversation(deps, { appId: req.chat!.app.id, conversationId: path.conversation_id })) };
  });

export const handler = lambdaHandler(createHandler, conversationApiProductionDeps);
