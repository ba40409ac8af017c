import { listOrders } from '../app/list-orders';
import { badRequest } from '../../platform/domain/errors';
import { acpCheckoutProductionDeps, type AdminOrdersDeps } from '../wiring/acp-wiring';
import { adminOrder } from './acp-admin-presenters';
import { httpRoute } from '../../platform/http/kit';
import { lambdaHandler } from '../../platform/http/lambda';
import { ACP_ROUTES } from '../acp-routes';

/** GET /admin/v1/apps/{appId}/orders[?limit=n]: the app's orders (completed ACP checkouts), newest first. */
export const createHandler = (deps: AdminOrdersDeps) =>
  httpRoute(ACP_ROUTES.adminOrdersList, deps, async (req) => {
    const raw = req.query.limit;
    const limit = raw === undefined ? 50 : Number(raw);
    if (!Number.isInteger(limit) || limit < 1) throw badRequest('Invalid limit: a whole number from 1 to 100');
    const orders = await listOrders(deps, { appId: req.path.appId ?? '', limit: Math.min(limit, 100) });
    return { status: 200, body: { data: orders.map(adminOrder) } };
  });

export const handler = lambdaHandler(createHandler, acpCheckoutProductionDeps);
