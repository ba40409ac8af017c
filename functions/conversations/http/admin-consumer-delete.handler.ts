import { deleteConsumer } from '../app/delete-resources';
import { adminTombstone } from './conversation-admin-presenters';
import { httpRoute } from '../../platform/http/kit';
import { lambdaHandler } from '../../platform/http/lambda';
import { conversationProductionDeps, type ConversationAdminDeps } from '../wiring/conversation-wiring';
import { CONVERSATION_ROUTES } from '../conversation-routes';

/** DELETE /admin/v1/consumers/{consumerId}: removes the consumer and its sessions (cause `consumer_deleted`). */
export const createHandler = (deps: ConversationAdminDeps) =>
  httpRoute(CONVERSATION_ROUTES.adminConsumerDelete, deps, async (req) => ({
    status: 200,
    body: { data: { tombstone: adminTombstone(await deleteConsumer(deps, { consumerId: req.path.consumerId ?? '' })) } },
  }));

export const handler = lambdaHandler(createHandler, conversationProductionDeps);
