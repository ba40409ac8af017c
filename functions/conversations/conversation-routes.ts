/**
 * The admin routes over conversations: importing sessions, deleting a session or a consumer.
 * Joined into the one route table by functions/routes.ts; synth loads this file, so it imports only types and leaf modules.
 */
import { ADMIN_API_BASE as ADMIN } from '../kernel/domain/admin-api-base';
import { adminRoute, routeTable } from '../kernel/route-vocabulary';
import { uuidPathParam } from '../kernel/domain/ids';

const APP_ID = uuidPathParam('The app’s id (a UUID)');

export const CONVERSATION_ROUTES = routeTable({
  adminImportCreate: adminRoute({
    method: 'POST',
    path: `${ADMIN}/apps/{appId}/imports`,
    pathParams: { appId: APP_ID },
    handler: 'conversations/http/admin-import-create',
    body: 'text',
    grants: ['table:read', 'table:write'],
    timeoutSeconds: 29,
  }),
  adminSessionDelete: adminRoute({
    method: 'DELETE',
    path: `${ADMIN}/sessions/{sessionId}`,
    pathParams: { sessionId: uuidPathParam('The session’s id (a UUID)') },
    handler: 'conversations/http/admin-session-delete',
    body: 'none',
    grants: ['table:read', 'table:write'],
  }),
  adminConsumerDelete: adminRoute({
    method: 'DELETE',
    path: `${ADMIN}/consumers/{consumerId}`,
    pathParams: { consumerId: uuidPathParam('The consumer’s id (a UUID)') },
    handler: 'conversations/http/admin-consumer-delete',
    body: 'none',
    grants: ['table:read', 'table:write'],
    timeoutSeconds: 29,
  }),
});
