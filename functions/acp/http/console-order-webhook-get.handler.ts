import { findOrderWebhook } from '../app/manage-order-webhook';
import { consoleOrderWebhookProductionDeps, type ConsoleOrderWebhookDeps } from '../acp-console-wiring';
import { adminOrderWebhook } from './acp-admin-presenters';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../../tenancy/app/admit-console-member';
import { ACP_CONSOLE_READ_REQUESTS } from '../openapi/acp-console-read-requests';
import { ACP_CONSOLE_ROUTES } from '../acp-console-routes';

/** GET /console/v1/orgs/{orgId}/apps/{appId}/acp/order-webhook: the app's order-event receiver (never its secret), null when it has none. */
export const createHandler = (deps: ConsoleOrderWebhookDeps) =>
  httpRoute(ACP_CONSOLE_ROUTES.consoleOrderWebhookGet, deps, async (req) => {
    const { path } = await readRequest(ACP_CONSOLE_READ_REQUESTS.consoleOrderWebhookGet, req, { queryPolicy: strictQuery });
    const webhook = await findOrderWebhook(deps, { appId: path.appId, orgId: consoleOrgOf(req).orgId });
    return { status: 200, body: { data: webhook ? adminOrderWebhook(webhook) : null } };
  });

export const handler = lambdaHandler(createHandler, consoleOrderWebhookProductionDeps);
