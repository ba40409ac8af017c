import { setOrderWebhook } from '../app/manage-order-webhook';

import { adminOrderWebhook } from './acp-admin-presenters';
import { adminOrderWebhookProductionDeps, type AdminOrderWebhookDeps } from '../acp-wiring';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ACP_ADMIN_REQUESTS } from '../openapi/acp-admin-requests';
import { ACP_ROUTES } from '../acp-routes';

/** PUT /admin/v1/apps/{appId}/acp/order-webhook: the agent platform's receiver of the app's order events, and the secret they are signed with (given, or made and shown once). */
export const createHandler = (deps: AdminOrderWebhookDeps) =>
  httpRoute(ACP_ROUTES.adminOrderWebhookPut, deps, async (req) => {
    const { path, body: b } = await readRequest(ACP_ADMIN_REQUESTS.adminOrderWebhookPut, req);
    const { webhook, secret } = await setOrderWebhook(deps, {
      appId: path.appId,
      url: b.url,
      ...(b.secret !== undefined ? { secret: b.secret } : {}),
    });
    return { status: 200, body: { data: { ...adminOrderWebhook(webhook), ...(secret ? { secret } : {}) } }, audit: { orgId: webhook.orgId } };
  });

export const handler = lambdaHandler(createHandler, adminOrderWebhookProductionDeps);
