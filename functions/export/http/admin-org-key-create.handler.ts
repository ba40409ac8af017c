import { ADMIN_OPERATOR, issueCredential } from '../../tenancy/app/issue-credential';
import type { ORG_SCOPES } from '../../kernel/domain/scopes';
import { adminCredential } from '../../tenancy/http/admin-presenters';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { EXPORT_ADMIN_REQUESTS } from '../openapi/export-admin-requests';
import { adminKeysProductionDeps, type AdminKeysDeps } from '../../tenancy/wiring/admin-keys-wiring';
import { EXPORT_ROUTES } from '../export-routes';

/** POST /admin/v1/orgs/{orgId}/keys: an org key (`svc_org_…`) with read scopes; the key is shown once. */
export const createHandler = (deps: AdminKeysDeps) =>
  httpRoute(EXPORT_ROUTES.adminOrgKeyCreate, deps, async (req) => {
    const { path, body: input } = await readRequest(EXPORT_ADMIN_REQUESTS.adminOrgKeyCreate, req);
    const issued = await issueCredential(deps, {
      kind: 'org',
      orgId: path.orgId,
      scopes: input.scopes as (typeof ORG_SCOPES)[number][],
      ...(input.expiresAt !== undefined ? { expiresAtUs: input.expiresAt } : {}),
      ...(input.name ? { name: input.name } : {}),
      createdBy: ADMIN_OPERATOR,
    });
    const after = adminCredential(issued.credential);
    return {
      status: 201,
      body: { data: adminCredential(issued.credential, issued.key) },
      audit: { resource: { type: 'key', id: issued.credential.id }, after },
    };
  });

export const handler = lambdaHandler(createHandler, adminKeysProductionDeps);
