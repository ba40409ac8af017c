import { deleteWebhookSubscription } from '../app/manage-webhook-subscriptions';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { RELEASE_NOTES_REQUESTS } from '../openapi/release-notes-requests';
import { releaseNotesReadProductionDeps, type ReleaseNotesReadDeps } from '../release-notes-wiring';
import { RELEASE_NOTES_ROUTES } from '../release-notes-routes';

/**
 * DELETE /api/v1/release-notes/subscriptions/{subscriptionId} with the subscription's secret as
 * bearer: 204. A missing or mismatched secret and an unknown id are the same 404.
 */
export const createHandler = (deps: ReleaseNotesReadDeps) =>
  httpRoute(RELEASE_NOTES_ROUTES.releaseNotesSubscriptionDelete, deps, async (req) => {
    const { path } = await readRequest(RELEASE_NOTES_REQUESTS.releaseNotesSubscriptionDelete, req);
    await deleteWebhookSubscription(deps, { subscriptionId: path.subscriptionId, secret: req.signingSecret });
    return { status: 204 };
  });

export const handler = lambdaHandler(createHandler, releaseNotesReadProductionDeps);
