import { addCredits } from '../app/manage-credits';
import { httpRoute } from './kit';
import { lambdaHandler } from './lambda';
import { parseWith } from './validation';
import { adminProductionDeps, type AdminBaseDeps } from '../wiring/admin-wiring';
import { ORG_CREDITS_BODY } from '../openapi/admin-requests';
import { PLATFORM_ROUTES } from '../platform-routes';

/** POST /admin/v1/orgs/{orgId}/credits: adds prepaid credits; answers the new balance. */
export const createHandler = (deps: AdminBaseDeps) =>
  httpRoute(PLATFORM_ROUTES.adminOrgCreditsAdd, deps, async (req) => {
    const input = parseWith(ORG_CREDITS_BODY, req.jsonBody());
    return { status: 200, body: { data: await addCredits(deps, { orgId: req.path.orgId ?? '', amountUsd: input.amountUsd }) } };
  });

export const handler = lambdaHandler(createHandler, adminProductionDeps);
