import { removeOrderWebhook } from '../app/manage-order-webhook';
import { consoleOrderWebhookProductionDeps, type ConsoleOrderWebhookDeps } from '../acp-console-wiring';
import { adminOrderWebhook } from './acp-admin-presenters';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../../tenancy/app/admit-console-member';
import { ACP_CONSOLE_READ_REQUESTS } from '../openapi/acp-console-read-requests';
import { ACP_CONSOLE_ROUTES } from '../acp-console-routes';

/** DELETE /console/v1/orgs/{orgId}/apps/{appId}/acp/order-webhook: no more order events for the app (those waiting are dropped). */
export const createHandler = (deps: ConsoleOrderWebhookDeps) =>
  httpRoute(ACP_CONSOLE_ROUTES.consoleOrderWebhookDelete, deps, async (req) => {
    const { path } = await readRequest(ACP_CONSOLE_READ_REQUESTS.consoleOrderWebhookDelete, req, { queryPolicy: strictQuery });
    const removed = await removeOrderWebhook(deps, { appId: path.appId, orgId: consoleOrgOf(req).orgId });
    return { status: 204, audit: { resource: { type: 'orderWebhook', id: removed.appId }, before: adminOrderWebhook(removed) } };
  });

export const handler = lambdaHandler(createHandler, consoleOrderWebhookProductionDeps);
