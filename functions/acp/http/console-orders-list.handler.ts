import { listOrders } from '../app/list-orders';
import { consoleOrdersProductionDeps, type ConsoleOrdersDeps } from '../acp-console-wiring';
import { adminOrder } from './acp-admin-presenters';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../../tenancy/app/admit-console-member';
import { ACP_CONSOLE_READ_REQUESTS } from '../openapi/acp-console-read-requests';
import { ACP_CONSOLE_ROUTES } from '../acp-console-routes';

/** GET /console/v1/orgs/{orgId}/apps/{appId}/orders[?limit=n&cursor=c]: a page of the app's orders (completed ACP checkouts), newest first. */
export const createHandler = (deps: ConsoleOrdersDeps) =>
  httpRoute(ACP_CONSOLE_ROUTES.consoleOrdersList, deps, async (req) => {
    const { path, query } = await readRequest(ACP_CONSOLE_READ_REQUESTS.consoleOrdersList, req, { queryPolicy: strictQuery });
    const page = await listOrders(deps, {
      appId: path.appId,
      orgId: consoleOrgOf(req).orgId,
      limit: query.limit ?? 50,
      ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
    });
    return { status: 200, body: { data: page.sessions.map(adminOrder), nextCursor: page.cursor ?? null } };
  });

export const handler = lambdaHandler(createHandler, consoleOrdersProductionDeps);
