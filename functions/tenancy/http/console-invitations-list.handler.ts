import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../app/admit-console-member';
import { listPendingInvitations } from '../app/manage-invitations';
import { CONSOLE_TENANCY_REQUESTS } from '../openapi/tenancy-console-requests';
import { TENANCY_ROUTES } from '../tenancy-routes';
import { consoleTenancyProductionDeps, type ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';
import { consoleInvitation } from './console-presenters';

/** GET /console/v1/orgs/{orgId}/invitations: the invitations still waiting for an answer, newest first. */
export const createHandler = (deps: ConsoleTenancyDeps) =>
  httpRoute(TENANCY_ROUTES.consoleInvitationsList, deps, async (req) => {
    await readRequest(CONSOLE_TENANCY_REQUESTS.consoleInvitationsList, req, { queryPolicy: strictQuery });
    const { orgId, caller } = consoleOrgOf(req);
    const now = deps.clock.nowUs();
    const invitations = await listPendingInvitations(deps, { orgId, by: caller.acting.by });
    return { status: 200, body: { data: invitations.map((i) => consoleInvitation(i, now)) } };
  });

export const handler = lambdaHandler(createHandler, consoleTenancyProductionDeps);
