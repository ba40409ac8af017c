import { cancelOrder } from '../app/manage-orders';

import { adminOrderDetail, orderChangeAudit } from './acp-admin-presenters';
import { publicBaseUrl } from '../../kernel/http/base-url';
import { acpCheckoutProductionDeps, type AdminOrdersDeps } from '../acp-wiring';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ACP_ADMIN_REQUESTS } from '../openapi/acp-admin-requests';
import { ACP_ROUTES } from '../acp-routes';

/** POST /admin/v1/apps/{appId}/orders/{orderId}/cancel: units not sent yet go back to stock; what was not refunded yet is refunded unless `refund` is false. */
export const createHandler = (deps: AdminOrdersDeps) =>
  httpRoute(ACP_ROUTES.adminOrderCancel, deps, async (req) => {
    const { path, body: b } = await readRequest(ACP_ADMIN_REQUESTS.adminOrderCancel, req);
    const s = await cancelOrder(deps, { appId: path.appId, orderId: path.orderId, refund: b.refund ?? true, reason: b.reason });
    return { status: 200, body: { data: adminOrderDetail(s, publicBaseUrl(deps, req)) }, audit: { orgId: s.orgId, ...orderChangeAudit(s) } };
  });

export const handler = lambdaHandler(createHandler, acpCheckoutProductionDeps);
