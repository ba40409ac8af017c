/**
 * Tenancy's part of the admin OpenAPI document: orgs, their credits, apps and revoking a key (the
 * admin routes of tenancy/tenancy-routes.ts), joined with the other areas' in
 * functions/openapi/admin-operations.ts.
 */
import { adminApp, adminCredential, adminData, adminOrg, creditsBalance } from './admin-schemas';
import { json, type OperationDoc } from '../../kernel/openapi-kit';
import { ADMIN_REQUESTS } from './tenancy-admin-requests';
import { ADMIN_RESOURCE_REQUESTS } from './admin-resource-requests';

const TAG = 'Orgs and apps';

export const TENANCY_ADMIN_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  adminOrgCreate: {
    tag: TAG,
    summary: 'Create an org',
    description: 'An org on the free or paid plan. Its apps, keys and credits are added with the routes below.',
    request: ADMIN_REQUESTS.adminOrgCreate,
    ok: { status: 201, description: 'The org', content: json(adminData(adminOrg, 'AdminOrgAnswer')) },
    errors: [401],
  },
  adminOrgGet: {
    tag: TAG,
    summary: 'Read an org',
    description: 'The org’s name and plan.',
    request: ADMIN_RESOURCE_REQUESTS.adminOrgGet,
    ok: { status: 200, description: 'The org', content: json(adminData(adminOrg, 'AdminOrgAnswer')) },
    errors: [401, 404],
  },
  adminOrgUpdate: {
    tag: TAG,
    summary: 'Rename an org or change its plan',
    description: 'The plan decides what the org may do (chat turns need the paid plan); a builder’s first sign-in creates an org on the free plan.',
    request: ADMIN_REQUESTS.adminOrgUpdate,
    ok: { status: 200, description: 'The org', content: json(adminData(adminOrg, 'AdminOrgAnswer')) },
    errors: [400, 401, 404],
  },
  adminOrgCreditsAdd: {
    tag: TAG,
    summary: 'Add prepaid credits',
    description: 'Adds a USD amount to the org’s prepaid balance (what chat turns are charged against on the paid plan) and answers the new balance.',
    request: ADMIN_REQUESTS.adminOrgCreditsAdd,
    ok: { status: 200, description: 'The new balance', content: json(adminData(creditsBalance, 'CreditsBalanceAnswer')) },
    errors: [401, 404],
  },
  adminKeyRevoke: {
    tag: TAG,
    summary: 'Revoke a key',
    description: 'Revokes an org, chat or ACP key at once: every request with it is refused from then on.',
    request: ADMIN_RESOURCE_REQUESTS.adminKeyRevoke,
    ok: { status: 200, description: 'The revoked key (its prefix, never the key)', content: json(adminData(adminCredential, 'AdminKeyAnswer')) },
    errors: [401, 404],
  },
  adminAppCreate: {
    tag: TAG,
    summary: 'Create an app',
    description: 'An app of the org, with optional settings (defaults otherwise); the answer carries its `appNameId`, the `model` chat clients send.',
    request: ADMIN_REQUESTS.adminAppCreate,
    ok: { status: 201, description: 'The app', content: json(adminData(adminApp, 'AdminAppAnswer')) },
    errors: [401, 404, 409],
  },
  adminAppGet: {
    tag: TAG,
    summary: 'Read an app',
    description: 'The app with its settings.',
    request: ADMIN_RESOURCE_REQUESTS.adminAppGet,
    ok: { status: 200, description: 'The app', content: json(adminData(adminApp, 'AdminAppAnswer')) },
    errors: [401, 404],
  },
  adminAppUpdate: {
    tag: TAG,
    summary: 'Rename an app or change its settings',
    description: 'The settings sent are merged over the current ones.',
    request: ADMIN_REQUESTS.adminAppUpdate,
    ok: { status: 200, description: 'The app', content: json(adminData(adminApp, 'AdminAppAnswer')) },
    errors: [401, 404],
  },
  adminAppDelete: {
    tag: TAG,
    summary: 'Delete an app',
    description:
      'The app leaves the apps list at once; its sessions and consumers are tombstoned (`app_deleted`) and removed by the jobs worker. Its keys stop working.',
    request: ADMIN_RESOURCE_REQUESTS.adminAppDelete,
    ok: { status: 202, description: 'The deleted app (with `deletedAt`)', content: json(adminData(adminApp, 'AdminAppAnswer')) },
    errors: [401, 404],
  },
};
