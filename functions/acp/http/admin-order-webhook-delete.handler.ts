import { removeOrderWebhook } from '../app/manage-order-webhook';
import { adminOrderWebhookProductionDeps, type AdminOrderWebhookDeps } from '../acp-wiring';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ACP_ADMIN_READ_REQUESTS } from '../openapi/acp-admin-read-requests';
import { ACP_ROUTES } from '../acp-routes';

/** DELETE /admin/v1/apps/{appId}/acp/order-webhook: no more order events for the app (those waiting are dropped). */
export const createHandler = (deps: AdminOrderWebhookDeps) =>
  httpRoute(ACP_ROUTES.adminOrderWebhookDelete, deps, async (req) => {
    const { path } = await readRequest(ACP_ADMIN_READ_REQUESTS.adminOrderWebhookDelete, req);
    const removed = await removeOrderWebhook(deps, { appId: path.appId });
    return { status: 204, audit: { orgId: removed.orgId } };
  });

export const handler = lambdaHandler(createHandler, adminOrderWebhookProductionDeps);
