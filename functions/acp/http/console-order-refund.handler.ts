import { refundOrder } from '../app/manage-orders';
import { consoleOrdersProductionDeps, type ConsoleOrdersDeps } from '../acp-console-wiring';
import { adminOrderDetail, orderChangeAudit } from './acp-admin-presenters';
import { publicBaseUrl } from '../../kernel/http/base-url';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../../tenancy/app/admit-console-member';
import { ACP_CONSOLE_REQUESTS } from '../openapi/acp-console-requests';
import { ACP_CONSOLE_ROUTES } from '../acp-console-routes';

/** POST /console/v1/orgs/{orgId}/apps/{appId}/orders/{orderId}/refunds: refund an amount (minor units) through the payment provider; `lines` names units that came back (they return to stock). */
export const createHandler = (deps: ConsoleOrdersDeps) =>
  httpRoute(ACP_CONSOLE_ROUTES.consoleOrderRefund, deps, async (req) => {
    const { path, body: b } = await readRequest(ACP_CONSOLE_REQUESTS.consoleOrderRefund, req, { queryPolicy: strictQuery });
    const s = await refundOrder(deps, { appId: path.appId, orgId: consoleOrgOf(req).orgId, orderId: path.orderId, ...b });
    return { status: 200, body: { data: adminOrderDetail(s, publicBaseUrl(deps, req)) }, audit: orderChangeAudit(s) };
  });

export const handler = lambdaHandler(createHandler, consoleOrdersProductionDeps);
