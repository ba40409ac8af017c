import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { publicBaseUrl } from '../../kernel/http/base-url';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../app/admit-console-member';
import { inviteMember } from '../app/manage-invitations';
import { CONSOLE_TENANCY_REQUESTS } from '../openapi/tenancy-console-requests';
import { TENANCY_ROUTES } from '../tenancy-routes';
import { consoleTenancyProductionDeps, type ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';
import { consoleInvitation } from './console-presenters';

/**
 * POST /console/v1/orgs/{orgId}/invitations: invites an e-mail address with a role. The answer holds
 * the invitation link once (its token after `#`, so it never reaches a server log); no mail is sent.
 */
export const createHandler = (deps: ConsoleTenancyDeps) =>
  httpRoute(TENANCY_ROUTES.consoleInvitationCreate, deps, async (req) => {
    const { body } = await readRequest(CONSOLE_TENANCY_REQUESTS.consoleInvitationCreate, req, { queryPolicy: strictQuery });
    const { orgId, caller } = consoleOrgOf(req);
    const issued = await inviteMember(deps, {
      orgId,
      email: body.email,
      role: body.role,
      ...(body.ttlDays ? { ttlDays: body.ttlDays } : {}),
      ...caller.acting,
    });
    const link = `${publicBaseUrl(deps, req)}/console/invitations#token=${issued.token}`;
    const data = { ...consoleInvitation(issued.invitation, deps.clock.nowUs()), token: issued.token, link };
    return { status: 201, body: { data }, audit: 'recorded' };
  });

export const handler = lambdaHandler(createHandler, consoleTenancyProductionDeps);
