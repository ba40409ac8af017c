import { createOrg } from '../app/create-org';
import { adminOrg } from './admin-presenters';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ADMIN_REQUESTS } from '../openapi/tenancy-admin-requests';
import { adminProductionDeps, type AdminBaseDeps } from '../wiring/admin-wiring';
import { TENANCY_ROUTES } from '../tenancy-routes';

/** POST /admin/v1/orgs: creates an org on a plan. */
export const createHandler = (deps: AdminBaseDeps) =>
  httpRoute(TENANCY_ROUTES.adminOrgCreate, deps, async (req) => {
    const { body: input } = await readRequest(ADMIN_REQUESTS.adminOrgCreate, req);
    const org = await createOrg(deps, input);
    return { status: 201, body: { data: adminOrg(org) }, audit: { orgId: org.id, resource: { type: 'org', id: org.id }, after: adminOrg(org) } };
  });

export const handler = lambdaHandler(createHandler, adminProductionDeps);
