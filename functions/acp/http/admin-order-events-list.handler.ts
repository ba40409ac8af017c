import { getOrder } from '../app/manage-orders';
import { adminOrderEvents } from './acp-admin-presenters';
import { acpCheckoutProductionDeps, type AdminOrdersDeps } from '../acp-wiring';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ACP_ADMIN_READ_REQUESTS } from '../openapi/acp-admin-read-requests';
import { ACP_ROUTES } from '../acp-routes';

/** GET /admin/v1/apps/{appId}/orders/{orderId}/events: the order's events waiting in its outbox and its delivery attempts, newest first. */
export const createHandler = (deps: AdminOrdersDeps) =>
  httpRoute(ACP_ROUTES.adminOrderEventsList, deps, async (req) => {
    const { path } = await readRequest(ACP_ADMIN_READ_REQUESTS.adminOrderEventsList, req);
    const s = await getOrder(deps, { appId: path.appId, orderId: path.orderId });
    const [cursor, attempts] = await Promise.all([deps.orderEventLog.cursor(s.id), deps.orderEventLog.list(s.id, 100)]);
    return { status: 200, body: { data: adminOrderEvents(s, cursor, attempts) } };
  });

export const handler = lambdaHandler(createHandler, acpCheckoutProductionDeps);
