import { listWebhookDeliveries } from '../app/manage-webhook-subscriptions';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { RELEASE_NOTES_REQUESTS } from '../openapi/release-notes-requests';
import { deliveryOut } from './release-notes-presenters';
import { releaseNotesReadProductionDeps, type ReleaseNotesReadDeps } from '../release-notes-wiring';
import { RELEASE_NOTES_ROUTES } from '../release-notes-routes';

/**
 * GET /api/v1/release-notes/subscriptions/{subscriptionId}/deliveries with the subscription's secret:
 * its last 100 delivery attempts, newest first (beyond the spec; 404 exactly like DELETE).
 */
export const createHandler = (deps: ReleaseNotesReadDeps) =>
  httpRoute(RELEASE_NOTES_ROUTES.releaseNotesDeliveriesList, deps, async (req) => {
    const { path } = await readRequest(RELEASE_NOTES_REQUESTS.releaseNotesDeliveriesList, req);
    const attempts = await listWebhookDeliveries(deps, { subscriptionId: path.subscriptionId, secret: req.signingSecret });
    return { status: 200, body: { data: attempts.map(deliveryOut) } };
  });

export const handler = lambdaHandler(createHandler, releaseNotesReadProductionDeps);
