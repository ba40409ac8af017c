import { fulfillOrder } from '../app/manage-orders';
import { parseWith } from '../../platform/http/validation';
import { fulfillBody } from '../openapi/admin-order-requests';
import { adminOrderDetail } from './acp-admin-presenters';
import { publicBaseUrl } from '../../platform/http/base-url';
import { acpCheckoutProductionDeps, type AdminOrdersDeps } from '../wiring/acp-wiring';
import { httpRoute } from '../../platform/http/kit';
import { lambdaHandler } from '../../platform/http/lambda';
import { ACP_ROUTES } from '../acp-routes';

/** POST /admin/v1/apps/{appId}/orders/{orderId}/fulfillments: units sent (all still to send when `lines` is absent), with tracking for a shipment. */
export const createHandler = (deps: AdminOrdersDeps) =>
  httpRoute(ACP_ROUTES.adminOrderFulfill, deps, async (req) => {
    const b = parseWith(fulfillBody, req.jsonBody());
    const s = await fulfillOrder(deps, {
      appId: req.path.appId ?? '',
      orderId: req.path.orderId ?? '',
      request: { ...b, status: b.status ?? (b.type === 'digital' ? 'delivered' : 'shipped') },
    });
    return { status: 200, body: { data: adminOrderDetail(s, publicBaseUrl(deps, req)) } };
  });

export const handler = lambdaHandler(createHandler, acpCheckoutProductionDeps);
