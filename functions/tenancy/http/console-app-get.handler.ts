import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { getOrgApp } from '../app/manage-apps';
import { CONSOLE_TENANCY_REQUESTS } from '../openapi/tenancy-console-requests';
import { TENANCY_ROUTES } from '../tenancy-routes';
import { consoleTenancyProductionDeps, type ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';
import { consoleApp } from './console-presenters';

/** GET /console/v1/orgs/{orgId}/apps/{appId}: one app of the org and its settings. */
export const createHandler = (deps: ConsoleTenancyDeps) =>
  httpRoute(TENANCY_ROUTES.consoleAppGet, deps, async (req) => {
    const { path } = await readRequest(CONSOLE_TENANCY_REQUESTS.consoleAppGet, req, { queryPolicy: strictQuery });
    return { status: 200, body: { data: consoleApp(await getOrgApp(deps, path)) } };
  });

export const handler = lambdaHandler(createHandler, consoleTenancyProductionDeps);
