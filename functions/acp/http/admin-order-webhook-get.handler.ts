import { getOrderWebhook } from '../app/manage-order-webhook';
import { adminOrderWebhook } from './acp-admin-presenters';
import { adminOrderWebhookProductionDeps, type AdminOrderWebhookDeps } from '../wiring/acp-wiring';
import { httpRoute } from '../../platform/http/kit';
import { lambdaHandler } from '../../platform/http/lambda';
import { ACP_ROUTES } from '../acp-routes';

/** GET /admin/v1/apps/{appId}/acp/order-webhook: the app's order-event receiver (never its secret). */
export const createHandler = (deps: AdminOrderWebhookDeps) =>
  httpRoute(ACP_ROUTES.adminOrderWebhookGet, deps, async (req) => {
    return { status: 200, body: { data: adminOrderWebhook(await getOrderWebhook(deps, { appId: req.path.appId ?? '' })) } };
  });

export const handler = lambdaHandler(createHandler, adminOrderWebhookProductionDeps);
