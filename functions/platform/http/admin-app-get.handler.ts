import { getApp } from '../app/manage-apps';
import { httpRoute } from './kit';
import { lambdaHandler } from './lambda';
import { adminApp } from './admin-presenters';
import { adminProductionDeps, type AdminBaseDeps } from '../wiring/admin-wiring';
import { PLATFORM_ROUTES } from '../platform-routes';

/** GET /admin/v1/apps/{appId} */
export const createHandler = (deps: AdminBaseDeps) =>
  httpRoute(PLATFORM_ROUTES.adminAppGet, deps, async (req) => ({ status: 200, body: { data: adminApp(await getApp(deps, { appId: req.path.appId ?? '' })) } }));

export const handler = lambdaHandler(createHandler, adminProductionDeps);
