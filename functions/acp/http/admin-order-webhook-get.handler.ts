import { getOrderWebhook } from '../app/manage-order-webhook';
import { adminOrderWebhook } from './acp-admin-presenters';
import { adminOrderWebhookProductionDeps, type AdminOrderWebhookDeps } from '../acp-wiring';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ACP_ADMIN_READ_REQUESTS } from '../openapi/acp-admin-read-requests';
import { ACP_ROUTES } from '../acp-routes';

/** GET /admin/v1/apps/{appId}/acp/order-webhook: the app's order-event receiver (never its secret). */
export const createHandler = (deps: AdminOrderWebhookDeps) =>
  httpRoute(ACP_ROUTES.adminOrderWebhookGet, deps, async (req) => {
    const { path } = await readRequest(ACP_ADMIN_READ_REQUESTS.adminOrderWebhookGet, req);
    return { status: 200, body: { data: adminOrderWebhook(await getOrderWebhook(deps, { appId: path.appId })) } };
  });

export const handler = lambdaHandler(createHandler, adminOrderWebhookProductionDeps);
