import { deliverFulfillment } from '../app/manage-orders';
import { adminOrderDetail, orderChangeAudit } from './acp-admin-presenters';
import { publicBaseUrl } from '../../kernel/http/base-url';
import { acpCheckoutProductionDeps, type AdminOrdersDeps } from '../acp-wiring';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ACP_ADMIN_READ_REQUESTS } from '../openapi/acp-admin-read-requests';
import { ACP_ROUTES } from '../acp-routes';

/** POST /admin/v1/apps/{appId}/orders/{orderId}/fulfillments/{fulfillmentId}/deliver: a shipment arrived. */
export const createHandler = (deps: AdminOrdersDeps) =>
  httpRoute(ACP_ROUTES.adminOrderDeliver, deps, async (req) => {
    const { path } = await readRequest(ACP_ADMIN_READ_REQUESTS.adminOrderDeliver, req);
    const s = await deliverFulfillment(deps, { appId: path.appId, orderId: path.orderId, fulfillmentId: path.fulfillmentId });
    return { status: 200, body: { data: adminOrderDetail(s, publicBaseUrl(deps, req)) }, audit: { orgId: s.orgId, ...orderChangeAudit(s) } };
  });

export const handler = lambdaHandler(createHandler, acpCheckoutProductionDeps);
