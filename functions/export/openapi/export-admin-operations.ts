/**
 * Area A's part of the admin OpenAPI document: issuing an org key (export/export-routes.ts), joined with
 * the other areas' in functions/openapi/admin-operations.ts.
 */
import { adminCredential, adminData } from '../../tenancy/openapi/admin-schemas';
import { json, type OperationDoc } from '../../kernel/openapi-kit';
import { EXPORT_ADMIN_REQUESTS } from './export-admin-requests';

export const EXPORT_ADMIN_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  adminOrgKeyCreate: {
    tag: 'Keys',
    summary: 'Issue an org key',
    description: 'An Org Export key (`svc_org_…`) with read scopes, optionally expiring. The answer shows the key once.',
    request: EXPORT_ADMIN_REQUESTS.adminOrgKeyCreate,
    ok: { status: 201, description: 'The key, shown once', content: json(adminData(adminCredential, 'AdminKeyAnswer')) },
    errors: [401, 404],
  },
};
