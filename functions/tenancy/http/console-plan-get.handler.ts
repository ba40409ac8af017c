import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../app/admit-console-member';
import { readPlan } from '../app/manage-credits';
import { CONSOLE_TENANCY_REQUESTS } from '../openapi/tenancy-console-requests';
import { TENANCY_ROUTES } from '../tenancy-routes';
import { consoleTenancyProductionDeps, type ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';

/** GET /console/v1/orgs/{orgId}/plan: the plan and the prepaid credit balance. */
export const createHandler = (deps: ConsoleTenancyDeps) =>
  httpRoute(TENANCY_ROUTES.consolePlanGet, deps, async (req) => {
    await readRequest(CONSOLE_TENANCY_REQUESTS.consolePlanGet, req, { queryPolicy: strictQuery });
    return { status: 200, body: { data: await readPlan(deps, { orgId: consoleOrgOf(req).orgId }) } };
  });

export const handler = lambdaHandler(createHandler, consoleTenancyProductionDeps);
