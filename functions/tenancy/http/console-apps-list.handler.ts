import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../app/admit-console-member';
import { CONSOLE_TENANCY_REQUESTS } from '../openapi/tenancy-console-requests';
import { TENANCY_ROUTES } from '../tenancy-routes';
import { consoleTenancyProductionDeps, type ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';
import { consoleApp } from './console-presenters';

/** GET /console/v1/orgs/{orgId}/apps: the org's apps (not deleted ones) with their settings. */
export const createHandler = (deps: ConsoleTenancyDeps) =>
  httpRoute(TENANCY_ROUTES.consoleAppsList, deps, async (req) => {
    await readRequest(CONSOLE_TENANCY_REQUESTS.consoleAppsList, req, { queryPolicy: strictQuery });
    const apps = await deps.apps.listByOrg(consoleOrgOf(req).orgId);
    return { status: 200, body: { data: apps.filter((a) => a.deletedAtUs === undefined).map(consoleApp) } };
  });

export const handler = lambdaHandler(createHandler, consoleTenancyProductionDeps);
