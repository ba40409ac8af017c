/**
 * The routes of area A, the Org Export API (read-only, org keys), the admin route that issues org keys,
 * and the console's routes over the same reads (an org's sessions, a transcript, bulk exports).
 * Joined into the one route table by functions/routes.ts; synth loads this file, so it imports only types and leaf modules.
 */
import { ADMIN_API_BASE as ADMIN } from '../kernel/domain/admin-api-base';
import { CONSOLE_API_BASE as CONSOLE } from '../kernel/domain/console-api-base';
import { adminRoute, consoleApiRoute, routeTable } from '../kernel/route-vocabulary';
import { uuidPathParam } from '../kernel/domain/ids';

const ORG_ID = uuidPathParam('The org’s id (a UUID)');
const SESSION_ID = uuidPathParam('The session’s id (a UUID)');
const EXPORT_ID = uuidPathParam('The export’s id (a UUID)');
const CONSOLE_ORG = `${CONSOLE}/orgs/{orgId}`;

const ORG = '/api/v1/org';
/** The Org Export API itself: an org key, counted against that key, errors in the area's shape. */
const ORG_KEY_ROUTE = { area: 'export', auth: 'orgKey', rateLimit: 'orgKey' } as const;

export const EXPORT_ROUTES = routeTable({
  orgAppsList: {
    ...ORG_KEY_ROUTE,
    method: 'GET',
    path: `${ORG}/apps`,
    handler: 'export/http/org-apps-list',
    scope: 'apps:read',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  orgSessionsList: {
    ...ORG_KEY_ROUTE,
    method: 'GET',
    path: `${ORG}/sessions`,
    handler: 'export/http/org-sessions-list',
    scope: 'transcripts:read',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  orgSessionMessages: {
    ...ORG_KEY_ROUTE,
    method: 'GET',
    path: `${ORG}/sessions/{sessionId}/messages`,
    pathParams: { sessionId: SESSION_ID },
    handler: 'export/http/org-session-messages',
    scope: 'transcripts:read',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  // Bulk snapshot exports (docs/adr/0031): each list needs its own scope, checked by the use case.
  orgExportCreate: {
    ...ORG_KEY_ROUTE,
    method: 'POST',
    path: `${ORG}/exports`,
    handler: 'export/http/org-export-create',
    body: 'json',
    grants: ['table:read', 'table:write', 'exports:send'],
  },
  orgExportGet: {
    ...ORG_KEY_ROUTE,
    method: 'GET',
    path: `${ORG}/exports/{exportId}`,
    pathParams: { exportId: EXPORT_ID },
    handler: 'export/http/org-export-get',
    body: 'none',
    grants: ['table:read', 'table:write', 'exports:send', 'bucket:read'],
  },
  orgUsageList: {
    ...ORG_KEY_ROUTE,
    method: 'GET',
    path: `${ORG}/usage`,
    handler: 'export/http/org-usage-list',
    scope: 'usage:read',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  orgTombstonesList: {
    ...ORG_KEY_ROUTE,
    method: 'GET',
    path: `${ORG}/tombstones`,
    handler: 'export/http/org-tombstones-list',
    scope: 'tombstones:read',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  adminOrgKeyCreate: adminRoute({
    method: 'POST',
    path: `${ADMIN}/orgs/{orgId}/keys`,
    pathParams: { orgId: ORG_ID },
    handler: 'export/http/admin-org-key-create',
    body: 'json',
    grants: ['table:read', 'table:write', 'apiKeys:manage'],
  }),
  consoleSessionsList: consoleApiRoute({
    permission: 'transcripts.metadata',
    method: 'GET',
    path: `${CONSOLE_ORG}/sessions`,
    pathParams: { orgId: ORG_ID },
    handler: 'export/http/console-sessions-list',
    body: 'none',
    grants: ['table:read', 'table:write'],
  }),
  consoleSessionGet: consoleApiRoute({
    permission: 'transcripts.read',
    method: 'GET',
    path: `${CONSOLE_ORG}/sessions/{sessionId}`,
    pathParams: { orgId: ORG_ID, sessionId: SESSION_ID },
    handler: 'export/http/console-session-get',
    body: 'none',
    grants: ['table:read', 'table:write'],
  }),
  // The org key's bulk export with every scope: the same job, worker and files.
  consoleExportCreate: consoleApiRoute({
    permission: 'exports.manage',
    method: 'POST',
    path: `${CONSOLE_ORG}/exports`,
    pathParams: { orgId: ORG_ID },
    handler: 'export/http/console-export-create',
    body: 'json',
    grants: ['table:read', 'table:write', 'exports:send'],
  }),
  consoleExportsList: consoleApiRoute({
    permission: 'exports.manage',
    method: 'GET',
    path: `${CONSOLE_ORG}/exports`,
    pathParams: { orgId: ORG_ID },
    handler: 'export/http/console-exports-list',
    body: 'none',
    grants: ['table:read', 'table:write'],
  }),
  consoleExportGet: consoleApiRoute({
    permission: 'exports.manage',
    method: 'GET',
    path: `${CONSOLE_ORG}/exports/{exportId}`,
    pathParams: { orgId: ORG_ID, exportId: EXPORT_ID },
    handler: 'export/http/console-export-get',
    body: 'none',
    grants: ['table:read', 'table:write', 'exports:send', 'bucket:read'],
  }),
});
