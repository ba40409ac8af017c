import { listWebhookSubscriptions } from '../app/manage-webhook-subscriptions';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { subscriptionOut } from './release-notes-presenters';
import { releaseNotesReadProductionDeps, type ReleaseNotesReadDeps } from '../release-notes-wiring';
import { RELEASE_NOTES_ROUTES } from '../release-notes-routes';

/**
 * GET /api/v1/release-notes/subscriptions with `Authorization: Bearer <SIGNING_SECRET>`: the one
 * subscription owning the secret (masked), or an empty list when it matches nothing.
 */
export const createHandler = (deps: ReleaseNotesReadDeps) =>
  httpRoute(RELEASE_NOTES_ROUTES.releaseNotesSubscriptionsList, deps, async (req) => {
    const subscriptions = await listWebhookSubscriptions(deps, { secret: req.signingSecret });
    return { status: 200, body: { data: subscriptions.map((s) => subscriptionOut(s)) } };
  });

export const handler = lambdaHandler(createHandler, releaseNotesReadProductionDeps);
