import { getOrder } from '../app/manage-orders';
import { consoleOrdersProductionDeps, type ConsoleOrdersDeps } from '../acp-console-wiring';
import { adminOrderEvents } from './acp-admin-presenters';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../../tenancy/app/admit-console-member';
import { ACP_CONSOLE_READ_REQUESTS } from '../openapi/acp-console-read-requests';
import { ACP_CONSOLE_ROUTES } from '../acp-console-routes';

/** GET /console/v1/orgs/{orgId}/apps/{appId}/orders/{orderId}/events: the order's events waiting for the agent platform and its delivery log, newest first. */
export const createHandler = (deps: ConsoleOrdersDeps) =>
  httpRoute(ACP_CONSOLE_ROUTES.consoleOrderEventsList, deps, async (req) => {
    const { path } = await readRequest(ACP_CONSOLE_READ_REQUESTS.consoleOrderEventsList, req, { queryPolicy: strictQuery });
    const s = await getOrder(deps, { appId: path.appId, orgId: consoleOrgOf(req).orgId, orderId: path.orderId });
    const [cursor, attempts] = await Promise.all([deps.orderEventLog.cursor(s.id), deps.orderEventLog.list(s.id, 100)]);
    return { status: 200, body: { data: adminOrderEvents(s, cursor, attempts) } };
  });

export const handler = lambdaHandler(createHandler, consoleOrdersProductionDeps);
