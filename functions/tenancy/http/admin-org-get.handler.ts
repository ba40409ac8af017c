import { notFound } from '../../kernel/domain/errors';
import { adminOrg } from './admin-presenters';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ADMIN_RESOURCE_REQUESTS } from '../openapi/admin-resource-requests';
import { adminProductionDeps, type AdminBaseDeps } from '../wiring/admin-wiring';
import { TENANCY_ROUTES } from '../tenancy-routes';

/** GET /admin/v1/orgs/{orgId} */
export const createHandler = (deps: AdminBaseDeps) =>
  httpRoute(TENANCY_ROUTES.adminOrgGet, deps, async (req) => {
    const { path } = await readRequest(ADMIN_RESOURCE_REQUESTS.adminOrgGet, req);
    const org = await deps.orgs.get(path.orgId);
    if (!org) throw notFound('Org not found');
    return { status: 200, body: { data: adminOrg(org) } };
  });

export const handler = lambdaHandler(createHandler, adminProductionDeps);
