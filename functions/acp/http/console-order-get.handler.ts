import { getOrder } from '../app/manage-orders';
import { consoleOrdersProductionDeps, type ConsoleOrdersDeps } from '../acp-console-wiring';
import { adminOrderDetail } from './acp-admin-presenters';
import { publicBaseUrl } from '../../kernel/http/base-url';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../../tenancy/app/admit-console-member';
import { ACP_CONSOLE_READ_REQUESTS } from '../openapi/acp-console-read-requests';
import { ACP_CONSOLE_ROUTES } from '../acp-console-routes';

/** GET /console/v1/orgs/{orgId}/apps/{appId}/orders/{orderId}: the order, as the merchant and as the agent platform see it. */
export const createHandler = (deps: ConsoleOrdersDeps) =>
  httpRoute(ACP_CONSOLE_ROUTES.consoleOrderGet, deps, async (req) => {
    const { path } = await readRequest(ACP_CONSOLE_READ_REQUESTS.consoleOrderGet, req, { queryPolicy: strictQuery });
    const s = await getOrder(deps, { appId: path.appId, orgId: consoleOrgOf(req).orgId, orderId: path.orderId });
    return { status: 200, body: { data: adminOrderDetail(s, publicBaseUrl(deps, req)) } };
  });

export const handler = lambdaHandler(createHandler, consoleOrdersProductionDeps);
