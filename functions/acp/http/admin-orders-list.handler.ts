import { listOrders } from '../app/list-orders';
import { acpCheckoutProductionDeps, type AdminOrdersDeps } from '../acp-wiring';
import { adminOrder } from './acp-admin-presenters';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ACP_ADMIN_READ_REQUESTS } from '../openapi/acp-admin-read-requests';
import { ACP_ROUTES } from '../acp-routes';

/** GET /admin/v1/apps/{appId}/orders[?limit=n]: the app's orders (completed ACP checkouts), newest first. */
export const createHandler = (deps: AdminOrdersDeps) =>
  httpRoute(ACP_ROUTES.adminOrdersList, deps, async (req) => {
    const { path, query } = await readRequest(ACP_ADMIN_READ_REQUESTS.adminOrdersList, req);
    const page = await listOrders(deps, { appId: path.appId, limit: query.limit ?? 50 });
    return { status: 200, body: { data: page.sessions.map(adminOrder) } };
  });

export const handler = lambdaHandler(createHandler, acpCheckoutProductionDeps);
