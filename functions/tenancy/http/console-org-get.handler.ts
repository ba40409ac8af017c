import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { notFound } from '../../kernel/domain/errors';
import { consoleOrgOf } from '../app/admit-console-member';
import { permissionsOf } from '../domain/roles';
import { CONSOLE_TENANCY_REQUESTS } from '../openapi/tenancy-console-requests';
import { TENANCY_ROUTES } from '../tenancy-routes';
import { consoleTenancyProductionDeps, type ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';
import { adminOrg } from './admin-presenters';

/** GET /console/v1/orgs/{orgId}: the org, with the caller's role and what it permits. */
export const createHandler = (deps: ConsoleTenancyDeps) =>
  httpRoute(TENANCY_ROUTES.consoleOrgGet, deps, async (req) => {
    await readRequest(CONSOLE_TENANCY_REQUESTS.consoleOrgGet, req, { queryPolicy: strictQuery });
    const { orgId, caller } = consoleOrgOf(req);
    const org = await deps.orgs.get(orgId);
    if (!org) throw notFound('Org not found');
    return { status: 200, body: { data: { ...adminOrg(org), role: caller.role, permissions: permissionsOf(caller.role!) } } };
  });

export const handler = lambdaHandler(createHandler, consoleTenancyProductionDeps);
