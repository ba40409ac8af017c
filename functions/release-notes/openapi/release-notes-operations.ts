/**
 * Area D's part of the OpenAPI document: one entry per public release-notes route
 * (release-notes/release-notes-routes.ts), joined with the other areas' in functions/openapi/operations.ts.
 */
import { json, type OperationDoc } from '../../platform/openapi/openapi-kit';
import { RELEASE_NOTES_REQUESTS } from './release-notes-requests';
import { SUBSCRIPTION_REQUESTS } from './subscription-requests';
import * as s from './release-notes-schemas';

export const RELEASE_NOTES_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  releaseNotesFeed: {
    tag: 'Release notes',
    summary: 'Release-notes RSS feed',
    request: RELEASE_NOTES_REQUESTS.releaseNotesFeed,
    ok: { status: 200, description: 'RSS 2.0', content: { 'application/rss+xml': s.rssFeed } },
    errors: [400, 429, 500],
  },
  releaseNotesSubscriptionCreate: {
    tag: 'Release notes',
    summary: 'Subscribe a webhook',
    request: SUBSCRIPTION_REQUESTS.releaseNotesSubscriptionCreate,
    ok: { status: 201, description: 'The subscription and its signing secret (shown once)', content: json(s.subscriptionCreated) },
    errors: [400, 413, 429, 500, 503],
  },
  releaseNotesSubscriptionsList: {
    tag: 'Release notes',
    summary: 'The subscriptions of a signing secret',
    ok: { status: 200, description: 'Subscriptions', content: json(s.subscriptionsList) },
    errors: [401, 429, 500],
  },
  releaseNotesSubscriptionDelete: {
    tag: 'Release notes',
    request: RELEASE_NOTES_REQUESTS.releaseNotesSubscriptionDelete,
    summary: 'Delete a subscription',
    ok: { status: 204, description: 'Deleted' },
    errors: [401, 404, 429, 500],
  },
  releaseNotesDeliveriesList: {
    tag: 'Release notes',
    request: RELEASE_NOTES_REQUESTS.releaseNotesDeliveriesList,
    summary: 'Delivery attempts of a subscription',
    ok: { status: 200, description: 'Attempts, newest first', content: json(s.deliveriesList) },
    errors: [401, 404, 429, 500],
  },
};
