import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import type { OrgScope } from '../../kernel/domain/scopes';
import { consoleOrgOf } from '../app/admit-console-member';
import { CONSOLE_TENANCY_REQUESTS } from '../openapi/tenancy-console-requests';
import { TENANCY_ROUTES } from '../tenancy-routes';
import { consoleKeysProductionDeps, type ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';
import { issueConsoleKey } from './console-key-issue';

/** POST /console/v1/orgs/{orgId}/keys: an org key (`svc_org_…`) with read scopes and an optional expiry; the key is shown once. */
export const createHandler = (deps: ConsoleTenancyDeps) =>
  httpRoute(TENANCY_ROUTES.consoleOrgKeyCreate, deps, async (req) => {
    const { body } = await readRequest(CONSOLE_TENANCY_REQUESTS.consoleOrgKeyCreate, req, { queryPolicy: strictQuery });
    const { orgId, caller } = consoleOrgOf(req);
    return issueConsoleKey(
      deps,
      { ...caller, orgId },
      {
        kind: 'org',
        scopes: body.scopes as OrgScope[],
        ...(body.expiresAt !== undefined ? { expiresAtUs: body.expiresAt } : {}),
        ...(body.name ? { name: body.name } : {}),
      },
    );
  });

export const handler = lambdaHandler(createHandler, consoleKeysProductionDeps);
