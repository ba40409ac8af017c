import { refundOrder } from '../app/manage-orders';

import { adminOrderDetail, orderChangeAudit } from './acp-admin-presenters';
import { publicBaseUrl } from '../../kernel/http/base-url';
import { acpCheckoutProductionDeps, type AdminOrdersDeps } from '../acp-wiring';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ACP_ADMIN_REQUESTS } from '../openapi/acp-admin-requests';
import { ACP_ROUTES } from '../acp-routes';

/** POST /admin/v1/apps/{appId}/orders/{orderId}/refunds: refund an amount (minor units) through the payment provider; `lines` names units that came back (they return to stock). */
export const createHandler = (deps: AdminOrdersDeps) =>
  httpRoute(ACP_ROUTES.adminOrderRefund, deps, async (req) => {
    const { path, body: b } = await readRequest(ACP_ADMIN_REQUESTS.adminOrderRefund, req);
    const s = await refundOrder(deps, { appId: path.appId, orderId: path.orderId, ...b });
    return { status: 200, body: { data: adminOrderDetail(s, publicBaseUrl(deps, req)) }, audit: { orgId: s.orgId, ...orderChangeAudit(s) } };
  });

export const handler = lambdaHandler(createHandler, acpCheckoutProductionDeps);
