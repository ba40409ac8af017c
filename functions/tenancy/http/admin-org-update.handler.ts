import { updateOrg } from '../app/create-org';
import { adminOrg } from './admin-presenters';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ADMIN_REQUESTS } from '../openapi/tenancy-admin-requests';
import { adminProductionDeps, type AdminBaseDeps } from '../wiring/admin-wiring';
import { TENANCY_ROUTES } from '../tenancy-routes';

/** PATCH /admin/v1/orgs/{orgId}: renames an org or moves it to another plan. */
export const createHandler = (deps: AdminBaseDeps) =>
  httpRoute(TENANCY_ROUTES.adminOrgUpdate, deps, async (req) => {
    const { path, body } = await readRequest(ADMIN_REQUESTS.adminOrgUpdate, req);
    const { before, after } = await updateOrg(deps, { orgId: path.orgId, ...body });
    return { status: 200, body: { data: adminOrg(after) }, audit: { before: adminOrg(before), after: adminOrg(after) } };
  });

export const handler = lambdaHandler(createHandler, adminProductionDeps);
