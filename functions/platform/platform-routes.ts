/**
 * The admin routes of tenancy: orgs, their credits, apps, and revoking any key.
 * Joined into the one route table by functions/routes.ts; synth loads this file, so it imports only types and leaf modules.
 */
import { ADMIN_API_BASE as ADMIN } from './domain/admin-api-base';
import { uuidPathParam } from './domain/ids';
import type { RouteDef } from '../routes';

const ORG_ID = uuidPathParam('The org’s id (a UUID)');
const APP_ID = uuidPathParam('The app’s id (a UUID)');
const KEY_ID = uuidPathParam('The key’s id (a UUID): an org, chat or ACP key');

export const PLATFORM_ROUTES: readonly RouteDef[] = [
  {
    id: 'adminOrgCreate',
    method: 'POST',
    path: `${ADMIN}/orgs`,
    handler: 'platform/http/admin-org-create',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'json',
    grants: ['table:write'],
  },
  {
    id: 'adminOrgGet',
    method: 'GET',
    path: `${ADMIN}/orgs/{orgId}`,
    pathParams: { orgId: ORG_ID },
    handler: 'platform/http/admin-org-get',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'none',
    grants: ['table:read'],
  },
  {
    id: 'adminOrgCreditsAdd',
    method: 'POST',
    path: `${ADMIN}/orgs/{orgId}/credits`,
    pathParams: { orgId: ORG_ID },
    handler: 'platform/http/admin-org-credits-add',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'json',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'adminKeyRevoke',
    method: 'DELETE',
    path: `${ADMIN}/keys/{keyId}`,
    pathParams: { keyId: KEY_ID },
    handler: 'platform/http/admin-key-revoke',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'none',
    grants: ['table:read', 'table:write', 'apiKeys:manage'],
  },
  {
    id: 'adminAppCreate',
    method: 'POST',
    path: `${ADMIN}/orgs/{orgId}/apps`,
    pathParams: { orgId: ORG_ID },
    handler: 'platform/http/admin-app-create',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'json',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'adminAppGet',
    method: 'GET',
    path: `${ADMIN}/apps/{appId}`,
    pathParams: { appId: APP_ID },
    handler: 'platform/http/admin-app-get',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'none',
    grants: ['table:read'],
  },
  {
    id: 'adminAppUpdate',
    method: 'PATCH',
    path: `${ADMIN}/apps/{appId}`,
    pathParams: { appId: APP_ID },
    handler: 'platform/http/admin-app-update',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'json',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'adminAppDelete',
    method: 'DELETE',
    path: `${ADMIN}/apps/{appId}`,
    pathParams: { appId: APP_ID },
    handler: 'platform/http/admin-app-delete',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'none',
    grants: ['table:read', 'table:write', 'jobs:send'],
  },
];
