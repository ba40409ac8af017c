import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../app/admit-console-member';
import { updateOrg } from '../app/create-org';
import { CONSOLE_TENANCY_REQUESTS } from '../openapi/tenancy-console-requests';
import { TENANCY_ROUTES } from '../tenancy-routes';
import { consoleTenancyProductionDeps, type ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';
import { adminOrg } from './admin-presenters';

/** PATCH /console/v1/orgs/{orgId}: renames the org (its plan is the operator's to change). */
export const createHandler = (deps: ConsoleTenancyDeps) =>
  httpRoute(TENANCY_ROUTES.consoleOrgUpdate, deps, async (req) => {
    const { body } = await readRequest(CONSOLE_TENANCY_REQUESTS.consoleOrgUpdate, req, { queryPolicy: strictQuery });
    const { before, after } = await updateOrg(deps, { orgId: consoleOrgOf(req).orgId, name: body.name });
    return { status: 200, body: { data: adminOrg(after) }, audit: { before: adminOrg(before), after: adminOrg(after) } };
  });

export const handler = lambdaHandler(createHandler, consoleTenancyProductionDeps);
