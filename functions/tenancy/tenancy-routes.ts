/**
 * The admin routes of tenancy: orgs, their credits, apps, and revoking any key.
 * Joined into the one route table by functions/routes.ts; synth loads this file, so it imports only types and leaf modules.
 */
import { ADMIN_API_BASE as ADMIN } from '../kernel/domain/admin-api-base';
import { adminRoute, consoleApiRoute, routeTable } from '../kernel/route-vocabulary';
import { CONSOLE_API_BASE as CONSOLE, SIGNED_IN } from '../kernel/domain/console-api-base';
import { uuidPathParam } from '../kernel/domain/ids';
import { MEMBER_ID } from './domain/member-id';
import type { Permission } from './domain/roles';

const ORG_ID = uuidPathParam('The org’s id (a UUID)');
const APP_ID = uuidPathParam('The app’s id (a UUID)');
const KEY_ID = uuidPathParam('The key’s id (a UUID): an org, chat or ACP key');
const INVITATION_ID = uuidPathParam('The invitation’s id (a UUID)');

const ORG_PATH = `${CONSOLE}/orgs/{orgId}`;
/** A console route of tenancy: reads and writes the platform table; `permission` from the one table. */
const tenancyConsole = (
  permission: Permission,
  route: Omit<Parameters<typeof consoleApiRoute>[0], 'permission' | 'grants'> & { grants?: Parameters<typeof consoleApiRoute>[0]['grants'] },
) => consoleApiRoute({ permission, grants: ['table:read', 'table:write'], ...route });

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
  adminOrgUpdate: adminRoute({
    method: 'PATCH',
    path: `${ADMIN}/orgs/{orgId}`,
    pathParams: { orgId: ORG_ID },
    handler: 'tenancy/http/admin-org-update',
    body: 'json',
    grants: ['table:read', 'table:write'],
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
  consoleOrgGet: tenancyConsole('org.read', {
    method: 'GET',
    path: ORG_PATH,
    pathParams: { orgId: ORG_ID },
    handler: 'tenancy/http/console-org-get',
    body: 'none',
  }),
  consoleOrgUpdate: tenancyConsole('org.settings.manage', {
    method: 'PATCH',
    path: ORG_PATH,
    pathParams: { orgId: ORG_ID },
    handler: 'tenancy/http/console-org-update',
    body: 'json',
  }),
  consolePlanGet: tenancyConsole('plan.read', {
    method: 'GET',
    path: `${ORG_PATH}/plan`,
    pathParams: { orgId: ORG_ID },
    handler: 'tenancy/http/console-plan-get',
    body: 'none',
  }),
  consoleMembersList: tenancyConsole('members.read', {
    method: 'GET',
    path: `${ORG_PATH}/members`,
    pathParams: { orgId: ORG_ID },
    handler: 'tenancy/http/console-members-list',
    body: 'none',
  }),
  consoleMemberUpdate: tenancyConsole('members.manage', {
    method: 'PATCH',
    path: `${ORG_PATH}/members/{memberId}`,
    pathParams: { orgId: ORG_ID, memberId: MEMBER_ID },
    handler: 'tenancy/http/console-member-update',
    body: 'json',
  }),
  consoleMemberRemove: tenancyConsole('members.manage', {
    method: 'DELETE',
    path: `${ORG_PATH}/members/{memberId}`,
    pathParams: { orgId: ORG_ID, memberId: MEMBER_ID },
    handler: 'tenancy/http/console-member-remove',
    body: 'none',
  }),
  consoleInvitationsList: tenancyConsole('invitations.manage', {
    method: 'GET',
    path: `${ORG_PATH}/invitations`,
    pathParams: { orgId: ORG_ID },
    handler: 'tenancy/http/console-invitations-list',
    body: 'none',
  }),
  consoleInvitationCreate: tenancyConsole('invitations.manage', {
    method: 'POST',
    path: `${ORG_PATH}/invitations`,
    pathParams: { orgId: ORG_ID },
    handler: 'tenancy/http/console-invitation-create',
    body: 'json',
  }),
  consoleInvitationRevoke: tenancyConsole('invitations.manage', {
    method: 'DELETE',
    path: `${ORG_PATH}/invitations/{invitationId}`,
    pathParams: { orgId: ORG_ID, invitationId: INVITATION_ID },
    handler: 'tenancy/http/console-invitation-revoke',
    body: 'none',
  }),
  consoleInvitationAccept: consoleApiRoute({
    permission: SIGNED_IN,
    method: 'POST',
    path: `${CONSOLE}/invitations/accept`,
    handler: 'tenancy/http/console-invitation-accept',
    body: 'json',
    grants: ['table:read', 'table:write'],
  }),
  consoleAuditList: tenancyConsole('audit.read', {
    method: 'GET',
    path: `${ORG_PATH}/audit-log`,
    pathParams: { orgId: ORG_ID },
    handler: 'tenancy/http/console-audit-list',
    body: 'none',
  }),
  consoleAppsList: tenancyConsole('apps.read', {
    method: 'GET',
    path: `${ORG_PATH}/apps`,
    pathParams: { orgId: ORG_ID },
    handler: 'tenancy/http/console-apps-list',
    body: 'none',
  }),
  consoleAppCreate: tenancyConsole('apps.manage', {
    method: 'POST',
    path: `${ORG_PATH}/apps`,
    pathParams: { orgId: ORG_ID },
    handler: 'tenancy/http/console-app-create',
    body: 'json',
  }),
  consoleAppGet: tenancyConsole('apps.read', {
    method: 'GET',
    path: `${ORG_PATH}/apps/{appId}`,
    pathParams: { orgId: ORG_ID, appId: APP_ID },
    handler: 'tenancy/http/console-app-get',
    body: 'none',
  }),
  consoleAppUpdate: tenancyConsole('apps.manage', {
    method: 'PATCH',
    path: `${ORG_PATH}/apps/{appId}`,
    pathParams: { orgId: ORG_ID, appId: APP_ID },
    handler: 'tenancy/http/console-app-update',
    body: 'json',
  }),
  consoleAppDelete: tenancyConsole('apps.manage', {
    method: 'DELETE',
    path: `${ORG_PATH}/apps/{appId}`,
    pathParams: { orgId: ORG_ID, appId: APP_ID },
    handler: 'tenancy/http/console-app-delete',
    body: 'none',
    grants: ['table:read', 'table:write', 'jobs:send'],
  }),
  consoleKeysList: tenancyConsole('keys.read', {
    method: 'GET',
    path: `${ORG_PATH}/keys`,
    pathParams: { orgId: ORG_ID },
    handler: 'tenancy/http/console-keys-list',
    body: 'none',
  }),
  consoleOrgKeyCreate: tenancyConsole('keys.manage', {
    method: 'POST',
    path: `${ORG_PATH}/keys`,
    pathParams: { orgId: ORG_ID },
    handler: 'tenancy/http/console-org-key-create',
    body: 'json',
    grants: ['table:read', 'table:write', 'apiKeys:manage'],
  }),
  consoleChatKeyCreate: tenancyConsole('keys.manage', {
    method: 'POST',
    path: `${ORG_PATH}/apps/{appId}/chat-keys`,
    pathParams: { orgId: ORG_ID, appId: APP_ID },
    handler: 'tenancy/http/console-chat-key-create',
    body: 'json',
    grants: ['table:read', 'table:write', 'apiKeys:manage'],
  }),
  consoleAcpKeyCreate: tenancyConsole('keys.manage', {
    method: 'POST',
    path: `${ORG_PATH}/apps/{appId}/acp-keys`,
    pathParams: { orgId: ORG_ID, appId: APP_ID },
    handler: 'tenancy/http/console-acp-key-create',
    body: 'json',
    grants: ['table:read', 'table:write', 'apiKeys:manage'],
  }),
  consoleKeyRevoke: tenancyConsole('keys.manage', {
    method: 'DELETE',
    path: `${ORG_PATH}/keys/{keyId}`,
    pathParams: { orgId: ORG_ID, keyId: KEY_ID },
    handler: 'tenancy/http/console-key-revoke',
    body: 'none',
    grants: ['table:read', 'table:write', 'apiKeys:manage'],
  }),
  consoleKeyRotate: tenancyConsole('keys.manage', {
    method: 'POST',
    path: `${ORG_PATH}/keys/{keyId}/rotate`,
    pathParams: { orgId: ORG_ID, keyId: KEY_ID },
    handler: 'tenancy/http/console-key-rotate',
    body: 'json',
    grants: ['table:read', 'table:write', 'apiKeys:manage'],
  }),
});
