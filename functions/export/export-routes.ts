/**
 * The routes of area A, the Org Export API (read-only, org keys), and the admin route that issues org keys.
 * Joined into the one route table by functions/routes.ts; synth loads this file, so it imports only types and leaf modules.
 */
import { ADMIN_API_BASE as ADMIN } from '../platform/domain/admin-api-base';
import { adminRoute, routeTable } from '../kernel/route-vocabulary';

const ORG = '/api/v1/org';

export const EXPORT_ROUTES = routeTable({
  orgAppsList: {
    method: 'GET',
    path: `${ORG}/apps`,
    handler: 'export/http/org-apps-list',
    area: 'export',
    auth: 'orgKey',
    scope: 'apps:read',
    rateLimit: 'orgKey',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  orgSessionsList: {
    method: 'GET',
    path: `${ORG}/sessions`,
    handler: 'export/http/org-sessions-list',
    area: 'export',
    auth: 'orgKey',
    scope: 'transcripts:read',
    rateLimit: 'orgKey',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  orgSessionMessages: {
    method: 'GET',
    path: `${ORG}/sessions/{sessionId}/messages`,
    handler: 'export/http/org-session-messages',
    area: 'export',
    auth: 'orgKey',
    scope: 'transcripts:read',
    rateLimit: 'orgKey',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  // Bulk snapshot exports (docs/adr/0031): each list needs its own scope, checked by the use case.
  orgExportCreate: {
    method: 'POST',
    path: `${ORG}/exports`,
    handler: 'export/http/org-export-create',
    area: 'export',
    auth: 'orgKey',
    rateLimit: 'orgKey',
    body: 'json',
    grants: ['table:read', 'table:write', 'exports:send'],
  },
  orgExportGet: {
    method: 'GET',
    path: `${ORG}/exports/{exportId}`,
    handler: 'export/http/org-export-get',
    area: 'export',
    auth: 'orgKey',
    rateLimit: 'orgKey',
    body: 'none',
    grants: ['table:read', 'table:write', 'exports:send', 'bucket:read'],
  },
  orgUsageList: {
    method: 'GET',
    path: `${ORG}/usage`,
    handler: 'export/http/org-usage-list',
    area: 'export',
    auth: 'orgKey',
    scope: 'usage:read',
    rateLimit: 'orgKey',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  orgTombstonesList: {
    method: 'GET',
    path: `${ORG}/tombstones`,
    handler: 'export/http/org-tombstones-list',
    area: 'export',
    auth: 'orgKey',
    scope: 'tombstones:read',
    rateLimit: 'orgKey',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  adminOrgKeyCreate: adminRoute({
    method: 'POST',
    path: `${ADMIN}/orgs/{orgId}/keys`,
    handler: 'export/http/admin-org-key-create',
    body: 'json',
    grants: ['table:read', 'table:write', 'apiKeys:manage'],
  }),
});
