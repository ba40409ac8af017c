import { addCredits } from '../app/manage-credits';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ADMIN_REQUESTS } from '../openapi/tenancy-admin-requests';
import { adminProductionDeps, type AdminBaseDeps } from '../wiring/admin-wiring';
import { TENANCY_ROUTES } from '../tenancy-routes';

/** POST /admin/v1/orgs/{orgId}/credits: adds prepaid credits; answers the new balance. */
export const createHandler = (deps: AdminBaseDeps) =>
  httpRoute(TENANCY_ROUTES.adminOrgCreditsAdd, deps, async (req) => {
    const { path, body: input } = await readRequest(ADMIN_REQUESTS.adminOrgCreditsAdd, req);
    const balance = await addCredits(deps, { orgId: path.orgId, amountUsd: input.amountUsd });
    return { status: 200, body: { data: balance }, audit: { after: { amountUsd: input.amountUsd, ...balance } } };
  });

export const handler = lambdaHandler(createHandler, adminProductionDeps);
