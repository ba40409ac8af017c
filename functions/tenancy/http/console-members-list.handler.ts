import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../app/admit-console-member';
import { listMembers } from '../app/manage-members';
import { CONSOLE_TENANCY_REQUESTS } from '../openapi/tenancy-console-requests';
import { TENANCY_ROUTES } from '../tenancy-routes';
import { consoleTenancyProductionDeps, type ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';
import { consoleMember } from './console-presenters';

/** GET /console/v1/orgs/{orgId}/members: everyone in the org and their role. */
export const createHandler = (deps: ConsoleTenancyDeps) =>
  httpRoute(TENANCY_ROUTES.consoleMembersList, deps, async (req) => {
    await readRequest(CONSOLE_TENANCY_REQUESTS.consoleMembersList, req, { queryPolicy: strictQuery });
    const { orgId, caller } = consoleOrgOf(req);
    const members = await listMembers(deps, { orgId, by: caller.acting.by });
    return { status: 200, body: { data: members.map(consoleMember) } };
  });

export const handler = lambdaHandler(createHandler, consoleTenancyProductionDeps);
