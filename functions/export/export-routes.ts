/**
 * The routes of area A, the Org Export API (read-only, org keys), and the admin route that issues org keys.
 * Joined into the one route table by functions/routes.ts; synth loads this file, so it imports only types and leaf modules.
 */
import { ADMIN_API_BASE as ADMIN } from '../kernel/domain/admin-api-base';
import { adminRoute, routeTable } from '../kernel/route-vocabulary';
import { uuidPathParam } from '../kernel/domain/ids';

const ORG_ID = uuidPathParam('The org’s id (a UUID)');

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
    pathParams: { sessionId: uuidPathParam('The session’s id (a UUID)') },
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
    pathParams: { exportId: uuidPathParam('The export’s id (a UUID)') },
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
});
