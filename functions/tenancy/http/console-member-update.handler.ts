import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../app/admit-console-member';
import { changeMemberRole } from '../app/manage-members';
import { CONSOLE_TENANCY_REQUESTS } from '../openapi/tenancy-console-requests';
import { TENANCY_ROUTES } from '../tenancy-routes';
import { consoleTenancyProductionDeps, type ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';
import { consoleMember } from './console-presenters';

/** PATCH /console/v1/orgs/{orgId}/members/{memberId}: changes a member's role (never the last owner's). */
export const createHandler = (deps: ConsoleTenancyDeps) =>
  httpRoute(TENANCY_ROUTES.consoleMemberUpdate, deps, async (req) => {
    const { path, body } = await readRequest(CONSOLE_TENANCY_REQUESTS.consoleMemberUpdate, req, { queryPolicy: strictQuery });
    const { orgId, caller } = consoleOrgOf(req);
    const member = await changeMemberRole(deps, { orgId, userKey: path.memberId, role: body.role, ...caller.acting });
    return { status: 200, body: { data: consoleMember(member) }, audit: 'recorded' };
  });

export const handler = lambdaHandler(createHandler, consoleTenancyProductionDeps);
