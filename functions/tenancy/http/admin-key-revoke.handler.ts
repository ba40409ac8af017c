import { revokeCredential } from '../app/issue-credential';
import { adminCredential } from './admin-presenters';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ADMIN_RESOURCE_REQUESTS } from '../openapi/admin-resource-requests';
import { adminKeysProductionDeps, type AdminKeysDeps } from '../wiring/admin-keys-wiring';
import { TENANCY_ROUTES } from '../tenancy-routes';

/** DELETE /admin/v1/keys/{keyId}: revokes a key of any kind at once. */
export const createHandler = (deps: AdminKeysDeps) =>
  httpRoute(TENANCY_ROUTES.adminKeyRevoke, deps, async (req) => {
    const { path } = await readRequest(ADMIN_RESOURCE_REQUESTS.adminKeyRevoke, req);
    const revoked = await revokeCredential(deps, { keyId: path.keyId });
    return { status: 200, body: { data: adminCredential(revoked) }, audit: { orgId: revoked.orgId } };
  });

export const handler = lambdaHandler(createHandler, adminKeysProductionDeps);
