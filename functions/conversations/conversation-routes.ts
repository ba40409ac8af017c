/**
 * The routes over conversations: the admin's (importing sessions, deleting a session or a consumer) and
 * the console's (usage and cost).
 * Joined into the one route table by functions/routes.ts; synth loads this file, so it imports only types and leaf modules.
 */
import { ADMIN_API_BASE as ADMIN } from '../kernel/domain/admin-api-base';
import { adminRoute, consoleApiRoute, routeTable } from '../kernel/route-vocabulary';
import { CONSOLE_API_BASE as CONSOLE } from '../kernel/domain/console-api-base';
import { uuidPathParam } from '../kernel/domain/ids';

const APP_ID = uuidPathParam('The app’s id (a UUID)');

export const CONVERSATION_ROUTES = routeTable({
  consoleUsageGet: consoleApiRoute({
    permission: 'usage.read',
    method: 'GET',
    path: `${CONSOLE}/orgs/{orgId}/usage`,
    pathParams: { orgId: uuidPathParam('The org’s id (a UUID)') },
    handler: 'conversations/http/console-usage-get',
    body: 'none',
    grants: ['table:read'],
  }),
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
