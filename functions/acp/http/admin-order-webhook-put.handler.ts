import { setOrderWebhook } from '../app/manage-order-webhook';
import { parseWith } from '../../platform/http/validation';
import { orderWebhookBody } from '../openapi/admin-order-requests';
import { adminOrderWebhook } from './acp-admin-presenters';
import { adminOrderWebhookProductionDeps, type AdminOrderWebhookDeps } from '../wiring/acp-wiring';
import { httpRoute } from '../../platform/http/kit';
import { lambdaHandler } from '../../platform/http/lambda';
import { ACP_ROUTES } from '../acp-routes';

/** PUT /admin/v1/apps/{appId}/acp/order-webhook: the agent platform's receiver of the app's order events, and the secret they are signed with (given, or made and shown once). */
export const createHandler = (deps: AdminOrderWebhookDeps) =>
  httpRoute(ACP_ROUTES.adminOrderWebhookPut, deps, async (req) => {
    const b = parseWith(orderWebhookBody, req.jsonBody());
    const { webhook, secret } = await setOrderWebhook(deps, {
      appId: req.path.appId ?? '',
      url: b.url,
      ...(b.secret !== undefined ? { secret: b.secret } : {}),
    });
    return { status: 200, body: { data: { ...adminOrderWebhook(webhook), ...(secret ? { secret } : {}) } } };
  });

export const handler = lambdaHandler(createHandler, adminOrderWebhookProductionDeps);
