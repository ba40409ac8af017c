/**
 * The admin routes of tenancy: orgs, their credits, apps, and revoking any key.
 * Joined into the one route table by functions/routes.ts; synth loads this file, so it imports only types and leaf modules.
 */
import { ADMIN_API_BASE as ADMIN } from '../kernel/domain/admin-api-base';
import { adminRoute, routeTable } from '../kernel/route-vocabulary';
import { uuidPathParam } from '../kernel/domain/ids';

const ORG_ID = uuidPathParam('The org’s id (a UUID)');
const APP_ID = uuidPathParam('The app’s id (a UUID)');
const KEY_ID = uuidPathParam('The key’s id (a UUID): an org, chat or ACP key');

export const TENANCY_ROUTES = routeTable({
  adminOrgCreate: adminRoute({
    method: 'POST',
    path: `${ADMIN}/orgs`,
    handler: 'tenancy/http/admin-org-create',
    body: 'json',
    grants: ['table:write'],
  }),
  adminOrgGet: adminRoute({
    method: 'GET',
    path: `${ADMIN}/orgs/{orgId}`,
    pathParams: { orgId: ORG_ID },
    handler: 'tenancy/http/admin-org-get',
    body: 'none',
    grants: ['table:read'],
  }),
  adminOrgCreditsAdd: adminRoute({
    method: 'POST',
    path: `${ADMIN}/orgs/{orgId}/credits`,
    pathParams: { orgId: ORG_ID },
    handler: 'tenancy/http/admin-org-credits-add',
    body: 'json',
    grants: ['table:read', 'table:write'],
  }),
  adminKeyRevoke: adminRoute({
    method: 'DELETE',
    path: `${ADMIN}/keys/{keyId}`,
    pathParams: { keyId: KEY_ID },
    handler: 'tenancy/http/admin-key-revoke',
    body: 'none',
    grants: ['table:read', 'table:write', 'apiKeys:manage'],
  }),
  adminAppCreate: adminRoute({
    method: 'POST',
    path: `${ADMIN}/orgs/{orgId}/apps`,
    pathParams: { orgId: ORG_ID },
    handler: 'tenancy/http/admin-app-create',
    body: 'json',
    grants: ['table:read', 'table:write'],
  }),
  adminAppGet: adminRoute({
    method: 'GET',
    path: `${ADMIN}/apps/{appId}`,
    pathParams: { appId: APP_ID },
    handler: 'tenancy/http/admin-app-get',
    body: 'none',
    grants: ['table:read'],
  }),
  adminAppUpdate: adminRoute({
    method: 'PATCH',
    path: `${ADMIN}/apps/{appId}`,
    pathParams: { appId: APP_ID },
    handler: 'tenancy/http/admin-app-update',
    body: 'json',
    grants: ['table:read', 'table:write'],
  }),
  adminAppDelete: adminRoute({
    method: 'DELETE',
    path: `${ADMIN}/apps/{appId}`,
    pathParams: { appId: APP_ID },
    handler: 'tenancy/http/admin-app-delete',
    body: 'none',
    grants: ['table:read', 'table:write', 'jobs:send'],
  }),
});
