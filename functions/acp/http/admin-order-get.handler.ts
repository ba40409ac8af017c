import { getOrder } from '../app/manage-orders';
import { adminOrderDetail } from './acp-admin-presenters';
import { publicBaseUrl } from '../../kernel/http/base-url';
import { acpCheckoutProductionDeps, type AdminOrdersDeps } from '../acp-wiring';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ACP_ADMIN_READ_REQUESTS } from '../openapi/acp-admin-read-requests';
import { ACP_ROUTES } from '../acp-routes';

/** GET /admin/v1/apps/{appId}/orders/{orderId}: the order, as the merchant and as the agent platform see it. */
export const createHandler = (deps: AdminOrdersDeps) =>
  httpRoute(ACP_ROUTES.adminOrderGet, deps, async (req) => {
    const { path } = await readRequest(ACP_ADMIN_READ_REQUESTS.adminOrderGet, req);
    const s = await getOrder(deps, { appId: path.appId, orderId: path.orderId });
    return { status: 200, body: { data: adminOrderDetail(s, publicBaseUrl(deps, req)) } };
  });

export const handler = lambdaHandler(createHandler, acpCheckoutProductionDeps);
