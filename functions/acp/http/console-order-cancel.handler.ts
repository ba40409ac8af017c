import { cancelOrder } from '../app/manage-orders';
import { consoleOrdersProductionDeps, type ConsoleOrdersDeps } from '../acp-console-wiring';
import { adminOrderDetail, orderChangeAudit } from './acp-admin-presenters';
import { publicBaseUrl } from '../../kernel/http/base-url';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../../tenancy/app/admit-console-member';
import { ACP_CONSOLE_REQUESTS } from '../openapi/acp-console-requests';
import { ACP_CONSOLE_ROUTES } from '../acp-console-routes';

/** POST /console/v1/orgs/{orgId}/apps/{appId}/orders/{orderId}/cancel: units not sent yet go back to stock; what was not refunded yet is refunded unless `refund` is false. */
export const createHandler = (deps: ConsoleOrdersDeps) =>
  httpRoute(ACP_CONSOLE_ROUTES.consoleOrderCancel, deps, async (req) => {
    const { path, body: b } = await readRequest(ACP_CONSOLE_REQUESTS.consoleOrderCancel, req, { queryPolicy: strictQuery });
    const input = { appId: path.appId, orgId: consoleOrgOf(req).orgId, orderId: path.orderId, refund: b.refund ?? true, reason: b.reason };
    const s = await cancelOrder(deps, input);
    return { status: 200, body: { data: adminOrderDetail(s, publicBaseUrl(deps, req)) }, audit: orderChangeAudit(s) };
  });

export const handler = lambdaHandler(createHandler, consoleOrdersProductionDeps);
