import { createAppKey } from '../../platform/http/admin-app-key-create';
import { httpRoute } from '../../platform/http/kit';
import { lambdaHandler } from '../../platform/http/lambda';
import { adminKeysProductionDeps, type AdminKeysDeps } from '../../platform/wiring/admin-keys-wiring';
import { ACP_ROUTES } from '../acp-routes';

/** POST /admin/v1/apps/{appId}/acp-keys: an ACP key (`acp_` + 32 characters) bound to the app; shown once. */
export const createHandler = (deps: AdminKeysDeps) =>
  httpRoute(ACP_ROUTES.adminAcpKeyCreate, deps, async (req) => {
    return createAppKey(deps, req, 'acp');
  });

export const handler = lambdaHandler(createHandler, adminKeysProductionDeps);
