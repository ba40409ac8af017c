/**
 * Area D's part of the OpenAPI document: one entry per public release-notes route
 * (release-notes/release-notes-routes.ts), joined with the other areas' in functions/openapi/operations.ts.
 */
import { json, type OperationDoc } from '../../kernel/openapi-kit';
import { RELEASE_NOTES_REQUESTS } from './release-notes-requests';
import { SUBSCRIPTION_REQUESTS } from './subscription-requests';
import * as s from './release-notes-schemas';

export const RELEASE_NOTES_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  releaseNotesFeed: {
    tag: 'Release notes',
    summary: 'Release-notes RSS feed',
    description:
      'The published release-note periods as RSS 2.0, newest first; `area` keeps the periods with an item in that area. Public, rate-limited per client IP.',
    request: RELEASE_NOTES_REQUESTS.releaseNotesFeed,
    ok: { status: 200, description: 'RSS 2.0', content: { 'application/rss+xml': s.rssFeed } },
    errors: [400, 429, 500],
  },
  releaseNotesPage: {
    tag: 'Release notes',
    summary: 'Release-notes page',
    description:
      'The public release-notes page: every published period as HTML, newest first, each under an anchor named by its period id (the feed items’ `link`). Readable without JavaScript; query parameters are ignored. Public, rate-limited per client IP.',
    ok: { status: 200, description: 'HTML', content: { 'text/html': s.releaseNotesPage } },
    errors: [429, 500],
  },
  releaseNotesSubscriptionCreate: {
    tag: 'Release notes',
    summary: 'Subscribe a webhook',
    description:
      'Subscribes an HTTPS callback to published periods (all, or some areas and categories). The answer shows the signing secret once; every delivery is signed with it.',
    request: SUBSCRIPTION_REQUESTS.releaseNotesSubscriptionCreate,
    ok: { status: 201, description: 'The subscription and its signing secret (shown once)', content: json(s.subscriptionCreated) },
    errors: [400, 413, 429, 500, 503],
  },
  releaseNotesSubscriptionsList: {
    tag: 'Release notes',
    summary: 'The subscriptions of a signing secret',
    description: 'The subscriptions of the signing secret sent as the bearer credential.',
    ok: { status: 200, description: 'Subscriptions', content: json(s.subscriptionsList) },
    errors: [401, 429, 500],
  },
  releaseNotesSubscriptionDelete: {
    tag: 'Release notes',
    request: RELEASE_NOTES_REQUESTS.releaseNotesSubscriptionDelete,
    summary: 'Delete a subscription',
    description: 'Deletes a subscription of the signing secret; its deliveries stop.',
    ok: { status: 204, description: 'Deleted' },
    errors: [401, 404, 429, 500],
  },
  releaseNotesDeliveriesList: {
    tag: 'Release notes',
    request: RELEASE_NOTES_REQUESTS.releaseNotesDeliveriesList,
    summary: 'Delivery attempts of a subscription',
    description: 'The delivery attempts of a subscription of the signing secret, newest first: outcome, HTTP status, latency.',
    ok: { status: 200, description: 'Attempts, newest first', content: json(s.deliveriesList) },
    errors: [401, 404, 429, 500],
  },
};
