import { deleteConsumer } from '../app/delete-resources';
import { adminTombstone } from './conversation-admin-presenters';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { CONVERSATION_REQUESTS } from '../openapi/conversation-requests';
import { conversationProductionDeps, type ConversationAdminDeps } from '../conversation-wiring';
import { CONVERSATION_ROUTES } from '../conversation-routes';

/** DELETE /admin/v1/consumers/{consumerId}: removes the consumer and its sessions (cause `consumer_deleted`). */
export const createHandler = (deps: ConversationAdminDeps) =>
  httpRoute(CONVERSATION_ROUTES.adminConsumerDelete, deps, async (req) => {
    const { path } = await readRequest(CONVERSATION_REQUESTS.adminConsumerDelete, req);
    const tombstone = await deleteConsumer(deps, { consumerId: path.consumerId });
    // The path names no org: the tombstone says whose audit log records the deletion.
    return { status: 200, body: { data: { tombstone: adminTombstone(tombstone) } }, audit: { orgId: tombstone.orgId } };
  });

export const handler = lambdaHandler(createHandler, conversationProductionDeps);
