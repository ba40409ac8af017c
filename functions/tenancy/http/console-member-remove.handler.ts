import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../app/admit-console-member';
import { removeMember } from '../app/manage-members';
import { CONSOLE_TENANCY_REQUESTS } from '../openapi/tenancy-console-requests';
import { TENANCY_ROUTES } from '../tenancy-routes';
import { consoleTenancyProductionDeps, type ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';

/** DELETE /console/v1/orgs/{orgId}/members/{memberId}: removes a member (never the last owner). */
export const createHandler = (deps: ConsoleTenancyDeps) =>
  httpRoute(TENANCY_ROUTES.consoleMemberRemove, deps, async (req) => {
    const { path } = await readRequest(CONSOLE_TENANCY_REQUESTS.consoleMemberRemove, req, { queryPolicy: strictQuery });
    const { orgId, caller } = consoleOrgOf(req);
    await removeMember(deps, { orgId, userKey: path.memberId, ...caller.acting });
    return { status: 204, audit: 'recorded' };
  });

export const handler = lambdaHandler(createHandler, consoleTenancyProductionDeps);
