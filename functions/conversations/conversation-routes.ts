/**
 * The admin routes over conversations: importing sessions, deleting a session or a consumer.
 * Joined into the one route table by functions/routes.ts; synth loads this file, so it imports only types and leaf modules.
 */
import { ADMIN_API_BASE as ADMIN } from '../platform/domain/admin-api-base';
import { uuidPathParam } from '../platform/domain/ids';
import type { RouteDef } from '../routes';

const APP_ID = uuidPathParam('The app’s id (a UUID)');

export const CONVERSATION_ROUTES: readonly RouteDef[] = [
  {
    id: 'adminImportCreate',
    method: 'POST',
    path: `${ADMIN}/apps/{appId}/imports`,
    pathParams: { appId: APP_ID },
    handler: 'conversations/http/admin-import-create',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'text',
    grants: ['table:read', 'table:write'],
    timeoutSeconds: 29,
  },
  {
    id: 'adminSessionDelete',
    method: 'DELETE',
    path: `${ADMIN}/sessions/{sessionId}`,
    pathParams: { sessionId: uuidPathParam('The session’s id (a UUID)') },
    handler: 'conversations/http/admin-session-delete',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'adminConsumerDelete',
    method: 'DELETE',
    path: `${ADMIN}/consumers/{consumerId}`,
    pathParams: { consumerId: uuidPathParam('The consumer’s id (a UUID)') },
    handler: 'conversations/http/admin-consumer-delete',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'none',
    grants: ['table:read', 'table:write'],
    timeoutSeconds: 29,
  },
];
