import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../app/admit-console-member';
import { revokeInvitation } from '../app/manage-invitations';
import { CONSOLE_TENANCY_REQUESTS } from '../openapi/tenancy-console-requests';
import { TENANCY_ROUTES } from '../tenancy-routes';
import { consoleTenancyProductionDeps, type ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';
import { consoleInvitation } from './console-presenters';

/** DELETE /console/v1/orgs/{orgId}/invitations/{invitationId}: its link stops working at once. */
export const createHandler = (deps: ConsoleTenancyDeps) =>
  httpRoute(TENANCY_ROUTES.consoleInvitationRevoke, deps, async (req) => {
    const { path } = await readRequest(CONSOLE_TENANCY_REQUESTS.consoleInvitationRevoke, req, { queryPolicy: strictQuery });
    const { orgId, caller } = consoleOrgOf(req);
    const invitation = await revokeInvitation(deps, { orgId, invitationId: path.invitationId, ...caller.acting });
    return { status: 200, body: { data: consoleInvitation(invitation, deps.clock.nowUs()) }, audit: 'recorded' };
  });

export const handler = lambdaHandler(createHandler, consoleTenancyProductionDeps);
