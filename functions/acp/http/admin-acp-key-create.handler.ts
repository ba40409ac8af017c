import { createAppKey } from '../../tenancy/http/admin-app-key-create';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { adminKeysProductionDeps, type AdminKeysDeps } from '../../tenancy/wiring/admin-keys-wiring';
import { ACP_ADMIN_REQUESTS } from '../openapi/acp-admin-requests';
import { ACP_ROUTES } from '../acp-routes';

/** POST /admin/v1/apps/{appId}/acp-keys: an ACP key (`acp_` + 32 characters) bound to the app; shown once. */
export const createHandler = (deps: AdminKeysDeps) =>
  httpRoute(ACP_ROUTES.adminAcpKeyCreate, deps, async (req) => createAppKey(deps, 'acp', await readRequest(ACP_ADMIN_REQUESTS.adminAcpKeyCreate, req)));

export const handler = lambdaHandler(createHandler, adminKeysProductionDeps);
