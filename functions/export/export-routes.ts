/**
 * The routes of area A, the Org Export API (read-only, org keys), and the admin route that issues org keys.
 * Joined into the one route table by functions/routes.ts; synth loads this file, so it imports only types and leaf modules.
 */
import { ADMIN_API_BASE as ADMIN } from '../platform/domain/admin-api-base';
import { uuidPathParam } from '../platform/domain/ids';
import type { RouteDef } from '../routes';

const ORG_ID = uuidPathParam('The org’s id (a UUID)');

const ORG = '/api/v1/org';

export const EXPORT_ROUTES: readonly RouteDef[] = [
  {
    id: 'orgAppsList',
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
  {
    id: 'orgSessionsList',
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
  {
    id: 'orgSessionMessages',
    method: 'GET',
    path: `${ORG}/sessions/{sessionId}/messages`,
    pathParams: { sessionId: uuidPathParam('The session’s id (a UUID)') },
    handler: 'export/http/org-session-messages',
    area: 'export',
    auth: 'orgKey',
    scope: 'transcripts:read',
    rateLimit: 'orgKey',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  // Bulk snapshot exports (docs/adr/0031): each list needs its own scope, checked by the use case.
  {
    id: 'orgExportCreate',
    method: 'POST',
    path: `${ORG}/exports`,
    handler: 'export/http/org-export-create',
    area: 'export',
    auth: 'orgKey',
    rateLimit: 'orgKey',
    body: 'json',
    grants: ['table:read', 'table:write', 'exports:send'],
  },
  {
    id: 'orgExportGet',
    method: 'GET',
    path: `${ORG}/exports/{exportId}`,
    pathParams: { exportId: uuidPathParam('The export’s id (a UUID)') },
    handler: 'export/http/org-export-get',
    area: 'export',
    auth: 'orgKey',
    rateLimit: 'orgKey',
    body: 'none',
    grants: ['table:read', 'table:write', 'exports:send', 'bucket:read'],
  },
  {
    id: 'orgUsageList',
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
  {
    id: 'orgTombstonesList',
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
  {
    id: 'adminOrgKeyCreate',
    method: 'POST',
    path: `${ADMIN}/orgs/{orgId}/keys`,
    pathParams: { orgId: ORG_ID },
    handler: 'export/http/admin-org-key-create',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'json',
    grants: ['table:read', 'table:write', 'apiKeys:manage'],
  },
];
