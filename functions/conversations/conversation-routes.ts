/**
 * The routes over conversations: the admin's (importing sessions, deleting a session or a consumer) and
 * the console's (usage and cost; deleting a session or a consumer).
 * Joined into the one route table by functions/routes.ts; synth loads this file, so it imports only types and leaf modules.
 */
import { ADMIN_API_BASE as ADMIN } from '../kernel/domain/admin-api-base';
import { adminRoute, consoleApiRoute, routeTable } from '../kernel/route-vocabulary';
import { CONSOLE_API_BASE as CONSOLE } from '../kernel/domain/console-api-base';
import { uuidPathParam } from '../kernel/domain/ids';

const APP_ID = uuidPathParam('The app’s id (a UUID)');
const ORG_ID = uuidPathParam('The org’s id (a UUID)');
const SESSION_ID = uuidPathParam('The session’s id (a UUID)');
const CONSUMER_ID = uuidPathParam('The consumer’s id (a UUID)');

export const CONVERSATION_ROUTES = routeTable({
  consoleUsageGet: consoleApiRoute({
    permission: 'usage.read',
    method: 'GET',
    path: `${CONSOLE}/orgs/{orgId}/usage`,
    pathParams: { orgId: ORG_ID },
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
    pathParams: { sessionId: SESSION_ID },
    handler: 'conversations/http/admin-session-delete',
    body: 'none',
    grants: ['table:read', 'table:write'],
  }),
  adminConsumerDelete: adminRoute({
    method: 'DELETE',
    path: `${ADMIN}/consumers/{consumerId}`,
    pathParams: { consumerId: CONSUMER_ID },
    handler: 'conversations/http/admin-consumer-delete',
    body: 'none',
    grants: ['table:read', 'table:write'],
    timeoutSeconds: 29,
  }),
  // The console's deletions: the same use cases as the admin routes above, within the caller's org.
  consoleSessionDelete: consoleApiRoute({
    permission: 'conversations.delete',
    method: 'DELETE',
    path: `${CONSOLE}/orgs/{orgId}/sessions/{sessionId}`,
    pathParams: { orgId: ORG_ID, sessionId: SESSION_ID },
    handler: 'conversations/http/console-session-delete',
    body: 'none',
    grants: ['table:read', 'table:write'],
  }),
  consoleConsumerDelete: consoleApiRoute({
    permission: 'conversations.delete',
    method: 'DELETE',
    path: `${CONSOLE}/orgs/{orgId}/consumers/{consumerId}`,
    pathParams: { orgId: ORG_ID, consumerId: CONSUMER_ID },
    handler: 'conversations/http/console-consumer-delete',
    body: 'none',
    grants: ['table:read', 'table:write'],
    timeoutSeconds: 29,
  }),
});
