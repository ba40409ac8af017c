import { deleteSession } from '../app/delete-resources';
import { adminTombstone } from './conversation-admin-presenters';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { CONVERSATION_REQUESTS } from '../openapi/conversation-requests';
import { conversationProductionDeps, type ConversationAdminDeps } from '../conversation-wiring';
import { CONVERSATION_ROUTES } from '../conversation-routes';

/** DELETE /admin/v1/sessions/{sessionId}: the product's session delete (tombstone cause `consumer_deleted`). */
export const createHandler = (deps: ConversationAdminDeps) =>
  httpRoute(CONVERSATION_ROUTES.adminSessionDelete, deps, async (req) => {
    const { path } = await readRequest(CONVERSATION_REQUESTS.adminSessionDelete, req);
    const tombstone = await deleteSession(deps, { sessionId: path.sessionId });
    // The path names no org: the tombstone says whose audit log records the deletion.
    return { status: 200, body: { data: { tombstone: adminTombstone(tombstone) } }, audit: { orgId: tombstone.orgId } };
  });

export const handler = lambdaHandler(createHandler, conversationProductionDeps);
