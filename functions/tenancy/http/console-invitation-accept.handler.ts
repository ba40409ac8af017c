import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { forbidden } from '../app/act-on-org';
import { consoleCallerOf } from '../app/admit-console-member';
import { acceptInvitation } from '../app/manage-invitations';
import { CONSOLE_TENANCY_REQUESTS } from '../openapi/tenancy-console-requests';
import { TENANCY_ROUTES } from '../tenancy-routes';
import { consoleTenancyProductionDeps, type ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';
import { consoleMember } from './console-presenters';

/** POST /console/v1/invitations/accept: the signed-in person joins the org whose invitation names their verified address. */
export const createHandler = (deps: ConsoleTenancyDeps) =>
  httpRoute(TENANCY_ROUTES.consoleInvitationAccept, deps, async (req) => {
    const { body } = await readRequest(CONSOLE_TENANCY_REQUESTS.consoleInvitationAccept, req, { queryPolicy: strictQuery });
    const caller = consoleCallerOf(req);
    const { person } = caller;
    if (!person.email) throw forbidden('Your e-mail address is not verified');
    const identity = { issuer: person.issuer, subject: person.subject, email: person.email, emailVerified: true };
    const member = await acceptInvitation(deps, { token: body.token, identity, origin: caller.acting.origin });
    return { status: 200, body: { data: { orgId: member.orgId, ...consoleMember(member) } }, audit: 'recorded' };
  });

export const handler = lambdaHandler(createHandler, consoleTenancyProductionDeps);
