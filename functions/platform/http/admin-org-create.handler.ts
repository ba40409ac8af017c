import { createOrg } from '../app/create-org';
import { adminOrg } from './admin-presenters';
import { httpRoute } from './kit';
import { lambdaHandler } from './lambda';
import { parseWith } from './validation';
import { adminProductionDeps, type AdminBaseDeps } from '../wiring/admin-wiring';
import { ORG_CREATE_BODY } from '../openapi/admin-requests';
import { PLATFORM_ROUTES } from '../platform-routes';

/** POST /admin/v1/orgs: creates an org on a plan. */
export const createHandler = (deps: AdminBaseDeps) =>
  httpRoute(PLATFORM_ROUTES.adminOrgCreate, deps, async (req) => {
    const input = parseWith(ORG_CREATE_BODY, req.jsonBody());
    return { status: 201, body: { data: adminOrg(await createOrg(deps, input)) } };
  });

export const handler = lambdaHandler(createHandler, adminProductionDeps);
