import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../app/admit-console-member';
import { revokeCredential } from '../app/issue-credential';
import { CONSOLE_TENANCY_REQUESTS } from '../openapi/tenancy-console-requests';
import { TENANCY_ROUTES } from '../tenancy-routes';
import { consoleKeysProductionDeps, type ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';
import { keyView } from './key-presenters';

/** DELETE /console/v1/orgs/{orgId}/keys/{keyId}: revokes a key of the org at once (a leaked key stops working). */
export const createHandler = (deps: ConsoleTenancyDeps) =>
  httpRoute(TENANCY_ROUTES.consoleKeyRevoke, deps, async (req) => {
    const { path } = await readRequest(CONSOLE_TENANCY_REQUESTS.consoleKeyRevoke, req, { queryPolicy: strictQuery });
    const revoked = await revokeCredential(deps, { keyId: path.keyId, orgId: consoleOrgOf(req).orgId });
    const data = keyView(revoked, deps.clock.nowUs());
    return { status: 200, body: { data }, audit: { after: data } };
  });

export const handler = lambdaHandler(createHandler, consoleKeysProductionDeps);
