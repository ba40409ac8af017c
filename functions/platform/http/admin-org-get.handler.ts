import { notFound } from '../domain/errors';
import { adminOrg } from './admin-presenters';
import { httpRoute } from './kit';
import { lambdaHandler } from './lambda';
import { adminProductionDeps, type AdminBaseDeps } from '../wiring/admin-wiring';
import { PLATFORM_ROUTES } from '../platform-routes';

/** GET /admin/v1/orgs/{orgId} */
export const createHandler = (deps: AdminBaseDeps) =>
  httpRoute(PLATFORM_ROUTES.adminOrgGet, deps, async (req) => {
    const org = await deps.orgs.get(req.path.orgId ?? '');
    if (!org) throw notFound('Org not found');
    return { status: 200, body: { data: adminOrg(org) } };
  });

export const handler = lambdaHandler(createHandler, adminProductionDeps);
