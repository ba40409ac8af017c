import { createWebhookSubscription } from '../app/create-webhook-subscription';
import { SUBSCRIPTION_REQUESTS } from '../openapi/subscription-requests';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { subscriptionOut } from './release-notes-presenters';
import { readRequest } from '../../kernel/http/request-declaration';
import { releaseNotesProductionDeps, type ReleaseNotesFunctionDeps } from '../release-notes-wiring';
import { RELEASE_NOTES_ROUTES } from '../release-notes-routes';

/**
 * POST /api/v1/release-notes/subscriptions: 201 with the subscription and its full `whsec_` secret,
 * shown this once. An invalid body, a non-https URL or a refused address is 400 `bad_request`.
 */
export const createHandler = (deps: ReleaseNotesFunctionDeps) =>
  httpRoute(RELEASE_NOTES_ROUTES.releaseNotesSubscriptionCreate, deps, async (req) => {
    const { body: input } = await readRequest(SUBSCRIPTION_REQUESTS.releaseNotesSubscriptionCreate, req);
    const { subscription, secret } = await createWebhookSubscription(deps, input);
    return { status: 201, body: { data: subscriptionOut(subscription, secret) }, headers: { 'Cache-Control': 'no-store' } };
  });

export const handler = lambdaHandler(createHandler, releaseNotesProductionDeps);
