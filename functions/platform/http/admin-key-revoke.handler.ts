import { revokeCredential } from '../app/issue-credential';
import { adminCredential } from './admin-presenters';
import { httpRoute } from './kit';
import { readRequest } from './request-declaration';
import { ADMIN_RESOURCE_REQUESTS } from '../openapi/admin-resource-requests';
import { lambdaHandler } from './lambda';
import { adminKeysProductionDeps, type AdminKeysDeps } from '../wiring/admin-keys-wiring';
import { PLATFORM_ROUTES } from '../platform-routes';

/** DELETE /admin/v1/keys/{keyId}: revokes a key of any kind at once. */
export const createHandler = (deps: AdminKeysDeps) =>
  httpRoute(PLATFORM_ROUTES.adminKeyRevoke, deps, async (req) => {
    const { path } = await readRequest(ADMIN_RESOURCE_REQUESTS.adminKeyRevoke, req);
    const revoked = await revokeCredential(deps, { keyId: path.keyId });
    return { status: 200, body: { data: adminCredential(revoked) } };
  });

export const handler = lambdaHandler(createHandler, adminKeysProductionDeps);
