import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { CONVERSATION_REQUESTS } from '../openapi/conversation-api-requests';
import { conversationApiProductionDeps, type ConversationFunctionDeps } from '../wiring/conversation-api-wiring';
import { CHAT_ROUTES } from '../chat-routes';
import { createConversation } from '../app/manage-conversations';
import { conversationView } from './conversation-presenters';

/** POST /api/v1/conversations: a new chat session of the key's app holding the items given, with its metadata. */
export const createHandler = (deps: ConversationFunctionDeps) =>
  httpRoute(CHAT_ROUTES.conversationsCreate, deps, async (req) => {
    const { body } = await readRequest(CONVERSATION_REQUESTS.conversationsCreate, req);
    const created = await createConversation(deps, { appId: req.chat!.app.id, items: body.items, metadata: body.metadata });
    return { status: 200, body: conversationView(created) };
  });

export const handler = lambdaHandler(createHandler, conversationApiProductionDeps);
