import { notFound } from '../domain/errors';
import { adminOrg } from './admin-presenters';
import { httpRoute } from './kit';
import { readRequest } from './request-declaration';
import { ADMIN_RESOURCE_REQUESTS } from '../openapi/admin-resource-requests';
import { lambdaHandler } from './lambda';
import { adminProductionDeps, type AdminBaseDeps } from '../wiring/admin-wiring';
import { PLATFORM_ROUTES } from '../platform-routes';

/** GET /admin/v1/orgs/{orgId} */
export const createHandler = (deps: AdminBaseDeps) =>
  httpRoute(PLATFORM_ROUTES.adminOrgGet, deps, async (req) => {
    const { path } = await readRequest(ADMIN_RESOURCE_REQUESTS.adminOrgGet, req);
    const org = await deps.orgs.get(path.orgId);
    if (!org) throw notFound('Org not found');
    return { status: 200, body: { data: adminOrg(org) } };
  });

export const handler = lambdaHandler(createHandler, adminProductionDeps);
