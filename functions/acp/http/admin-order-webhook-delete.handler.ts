import { removeOrderWebhook } from '../app/manage-order-webhook';
import { adminOrderWebhookProductionDeps, type AdminOrderWebhookDeps } from '../wiring/acp-wiring';
import { httpRoute } from '../../platform/http/kit';
import { lambdaHandler } from '../../platform/http/lambda';
import { ACP_ROUTES } from '../acp-routes';

/** DELETE /admin/v1/apps/{appId}/acp/order-webhook: no more order events for the app (those waiting are dropped). */
export const createHandler = (deps: AdminOrderWebhookDeps) =>
  httpRoute(ACP_ROUTES.adminOrderWebhookDelete, deps, async (req) => {
    await removeOrderWebhook(deps, { appId: req.path.appId ?? '' });
    return { status: 204 };
  });

export const handler = lambdaHandler(createHandler, adminOrderWebhookProductionDeps);
