import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../app/admit-console-member';
import { listCredentials } from '../app/list-credentials';
import type { CredentialKind } from '../domain/credentials';
import { CONSOLE_TENANCY_REQUESTS } from '../openapi/tenancy-console-requests';
import { TENANCY_ROUTES } from '../tenancy-routes';
import { consoleTenancyProductionDeps, type ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';
import { keyListView } from './key-presenters';

/** GET /console/v1/orgs/{orgId}/keys: the org's keys of every kind by prefix, creator and last use, newest first; never a secret. */
export const createHandler = (deps: ConsoleTenancyDeps) =>
  httpRoute(TENANCY_ROUTES.consoleKeysList, deps, async (req) => {
    const { query } = await readRequest(CONSOLE_TENANCY_REQUESTS.consoleKeysList, req, { queryPolicy: strictQuery });
    const page = await listCredentials(deps, {
      orgId: consoleOrgOf(req).orgId,
      ...(query.appId !== undefined ? { appId: query.appId } : {}),
      ...(query.kind !== undefined ? { kind: query.kind as CredentialKind } : {}),
      ...(query.limit !== undefined ? { limit: query.limit } : {}),
      ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
    });
    return { status: 200, body: keyListView(page, deps.clock.nowUs()) };
  });

export const handler = lambdaHandler(createHandler, consoleTenancyProductionDeps);
