import { refundOrder } from '../app/manage-orders';
import { parseWith } from '../../platform/http/validation';
import { refundBody } from '../openapi/admin-order-requests';
import { adminOrderDetail } from './acp-admin-presenters';
import { publicBaseUrl } from '../../platform/http/base-url';
import { acpCheckoutProductionDeps, type AdminOrdersDeps } from '../wiring/acp-wiring';
import { httpRoute } from '../../platform/http/kit';
import { lambdaHandler } from '../../platform/http/lambda';
import { ACP_ROUTES } from '../acp-routes';

/** POST /admin/v1/apps/{appId}/orders/{orderId}/refunds: refund an amount (minor units) through the payment provider; `lines` names units that came back (they return to stock). */
export const createHandler = (deps: AdminOrdersDeps) =>
  httpRoute(ACP_ROUTES.adminOrderRefund, deps, async (req) => {
    const b = parseWith(refundBody, req.jsonBody());
    const s = await refundOrder(deps, { appId: req.path.appId ?? '', orderId: req.path.orderId ?? '', ...b });
    return { status: 200, body: { data: adminOrderDetail(s, publicBaseUrl(deps, req)) } };
  });

export const handler = lambdaHandler(createHandler, acpCheckoutProductionDeps);
