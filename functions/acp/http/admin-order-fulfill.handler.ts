import { fulfillOrder } from '../app/manage-orders';

import { adminOrderDetail, orderChangeAudit } from './acp-admin-presenters';
import { publicBaseUrl } from '../../kernel/http/base-url';
import { acpCheckoutProductionDeps, type AdminOrdersDeps } from '../acp-wiring';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ACP_ADMIN_REQUESTS } from '../openapi/acp-admin-requests';
import { ACP_ROUTES } from '../acp-routes';

/** POST /admin/v1/apps/{appId}/orders/{orderId}/fulfillments: units sent (all still to send when `lines` is absent), with tracking for a shipment. */
export const createHandler = (deps: AdminOrdersDeps) =>
  httpRoute(ACP_ROUTES.adminOrderFulfill, deps, async (req) => {
    const { path, body: b } = await readRequest(ACP_ADMIN_REQUESTS.adminOrderFulfill, req);
    const s = await fulfillOrder(deps, {
      appId: path.appId,
      orderId: path.orderId,
      request: { ...b, status: b.status ?? (b.type === 'digital' ? 'delivered' : 'shipped') },
    });
    return { status: 200, body: { data: adminOrderDetail(s, publicBaseUrl(deps, req)) }, audit: { orgId: s.orgId, ...orderChangeAudit(s) } };
  });

export const handler = lambdaHandler(createHandler, acpCheckoutProductionDeps);
