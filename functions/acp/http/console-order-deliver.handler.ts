import { deliverFulfillment } from '../app/manage-orders';
import { consoleOrdersProductionDeps, type ConsoleOrdersDeps } from '../acp-console-wiring';
import { adminOrderDetail, orderChangeAudit } from './acp-admin-presenters';
import { publicBaseUrl } from '../../kernel/http/base-url';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../../tenancy/app/admit-console-member';
import { ACP_CONSOLE_READ_REQUESTS } from '../openapi/acp-console-read-requests';
import { ACP_CONSOLE_ROUTES } from '../acp-console-routes';

/** POST /console/v1/orgs/{orgId}/apps/{appId}/orders/{orderId}/fulfillments/{fulfillmentId}/deliver: a shipment arrived. */
export const createHandler = (deps: ConsoleOrdersDeps) =>
  httpRoute(ACP_CONSOLE_ROUTES.consoleOrderDeliver, deps, async (req) => {
    const { path } = await readRequest(ACP_CONSOLE_READ_REQUESTS.consoleOrderDeliver, req, { queryPolicy: strictQuery });
    const s = await deliverFulfillment(deps, { appId: path.appId, orgId: consoleOrgOf(req).orgId, orderId: path.orderId, fulfillmentId: path.fulfillmentId });
    return { status: 200, body: { data: adminOrderDetail(s, publicBaseUrl(deps, req)) }, audit: orderChangeAudit(s) };
  });

export const handler = lambdaHandler(createHandler, consoleOrdersProductionDeps);
