import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../app/admit-console-member';
import { CONSOLE_TENANCY_REQUESTS } from '../openapi/tenancy-console-requests';
import { TENANCY_ROUTES } from '../tenancy-routes';
import { consoleKeysProductionDeps, type ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';
import { issueConsoleKey } from './console-key-issue';

/** POST /console/v1/orgs/{orgId}/apps/{appId}/acp-keys: an ACP key (`acp_…`) of the app, from its catalog publishing settings; the key is shown once. */
export const createHandler = (deps: ConsoleTenancyDeps) =>
  httpRoute(TENANCY_ROUTES.consoleAcpKeyCreate, deps, async (req) => {
    const { path, body } = await readRequest(CONSOLE_TENANCY_REQUESTS.consoleAcpKeyCreate, req, { queryPolicy: strictQuery });
    const { orgId, caller } = consoleOrgOf(req);
    return issueConsoleKey(
      deps,
      { ...caller, orgId },
      {
        kind: 'acp',
        appId: path.appId,
        ...(body?.expiresAt !== undefined ? { expiresAtUs: body.expiresAt } : {}),
        ...(body?.name ? { name: body.name } : {}),
      },
    );
  });

export const handler = lambdaHandler(createHandler, consoleKeysProductionDeps);
