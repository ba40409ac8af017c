import { getApp } from '../app/manage-apps';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ADMIN_RESOURCE_REQUESTS } from '../openapi/admin-resource-requests';
import { adminApp } from './admin-presenters';
import { adminProductionDeps, type AdminBaseDeps } from '../wiring/admin-wiring';
import { TENANCY_ROUTES } from '../tenancy-routes';

/** GET /admin/v1/apps/{appId} */
export const createHandler = (deps: AdminBaseDeps) =>
  httpRoute(TENANCY_ROUTES.adminAppGet, deps, async (req) => {
    const { path } = await readRequest(ADMIN_RESOURCE_REQUESTS.adminAppGet, req);
    return { status: 200, body: { data: adminApp(await getApp(deps, { appId: path.appId })) } };
  });

export const handler = lambdaHandler(createHandler, adminProductionDeps);
