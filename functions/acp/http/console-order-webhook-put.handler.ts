import { setOrderWebhook } from '../app/manage-order-webhook';
import { consoleOrderWebhookProductionDeps, type ConsoleOrderWebhookDeps } from '../acp-console-wiring';
import { adminOrderWebhook } from './acp-admin-presenters';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../../tenancy/app/admit-console-member';
import { ACP_CONSOLE_REQUESTS } from '../openapi/acp-console-requests';
import { ACP_CONSOLE_ROUTES } from '../acp-console-routes';

/**
 * PUT /console/v1/orgs/{orgId}/apps/{appId}/acp/order-webhook: the agent platform's receiver of the app's
 * order events, and the secret they are signed with (given, or made and shown once).
 */
export const createHandler = (deps: ConsoleOrderWebhookDeps) =>
  httpRoute(ACP_CONSOLE_ROUTES.consoleOrderWebhookPut, deps, async (req) => {
    const { path, body: b } = await readRequest(ACP_CONSOLE_REQUESTS.consoleOrderWebhookPut, req, { queryPolicy: strictQuery });
    const { webhook, secret } = await setOrderWebhook(deps, {
      appId: path.appId,
      orgId: consoleOrgOf(req).orgId,
      url: b.url,
      ...(b.secret !== undefined ? { secret: b.secret } : {}),
    });
    const data = adminOrderWebhook(webhook);
    return {
      status: 200,
      body: { data: { ...data, ...(secret ? { secret } : {}) } },
      audit: { resource: { type: 'orderWebhook', id: webhook.appId }, after: data },
    };
  });

export const handler = lambdaHandler(createHandler, consoleOrderWebhookProductionDeps);
