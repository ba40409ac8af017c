import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { CONVERSATION_REQUESTS } from '../openapi/conversation-api-requests';
import { conversationApiProductionDeps, type ConversationFunctionDeps } from '../wiring/conversation-api-wiring';
import { CHAT_ROUTES } from '../chat-routes';
import { deleteConversation } from '../app/manage-conversations';
import { conversationDeletedView } from './conversation-presenters';

/** DELETE /api/v1/conversations/{conversation_id}: deletes the session as the console does (tombstone cause `consumer_deleted`). */
export const createHandler = (deps: ConversationFunctionDeps) =>
  httpRoute(CHAT_ROUTES.conversationDelete, deps, async (req) => {
    const { path } = await readRequest(CONVERSATION_REQUESTS.conversationDelete, req);
    const tombstone = await deleteConversation(deps, { appId: req.chat!.app.id, conversationId: path.conversation_id });
    return { status: 200, body: conversationDeletedView(tombstone.resourceId) };
  });

export const handler = lambdaHandler(createHandler, conversationApiProductionDeps);
