/**
 * The routes of area D, the release-notes feed and webhook subscriptions, and the admin route that publishes a period.
 * Joined into the one route table by functions/routes.ts; synth loads this file, so it imports only types and leaf modules.
 */
import { ADMIN_API_BASE as ADMIN } from '../kernel/domain/admin-api-base';
import { adminRoute, routeTable } from '../kernel/route-vocabulary';
import { uuidPathParam } from '../kernel/domain/ids';

const SUBSCRIPTION_ID = uuidPathParam('The subscription’s id (a UUID)');

const RELEASE_NOTES = '/api/v1/release-notes';

export const RELEASE_NOTES_ROUTES = routeTable({
  releaseNotesFeed: {
    method: 'GET',
    path: `${RELEASE_NOTES}/feed`,
    handler: 'release-notes/http/release-notes-feed',
    area: 'releaseNotes',
    auth: 'public',
    rateLimit: 'releaseNotesIp',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  releaseNotesPage: {
    method: 'GET',
    path: '/release-notes',
    handler: 'release-notes/http/release-notes-page',
    area: 'releaseNotes',
    auth: 'public',
    rateLimit: 'releaseNotesIp',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  releaseNotesSubscriptionCreate: {
    method: 'POST',
    path: `${RELEASE_NOTES}/subscriptions`,
    handler: 'release-notes/http/release-notes-subscription-create',
    area: 'releaseNotes',
    auth: 'public',
    rateLimit: 'releaseNotesIp',
    body: 'json',
    grants: ['table:read', 'table:write', 'webhooks:send', 'secrets:seal'],
  },
  releaseNotesSubscriptionsList: {
    method: 'GET',
    path: `${RELEASE_NOTES}/subscriptions`,
    handler: 'release-notes/http/release-notes-subscriptions-list',
    area: 'releaseNotes',
    auth: 'signingSecret',
    rateLimit: 'releaseNotesIp',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  releaseNotesSubscriptionDelete: {
    method: 'DELETE',
    path: `${RELEASE_NOTES}/subscriptions/{subscriptionId}`,
    pathParams: { subscriptionId: SUBSCRIPTION_ID },
    handler: 'release-notes/http/release-notes-subscription-delete',
    area: 'releaseNotes',
    auth: 'signingSecret',
    rateLimit: 'releaseNotesIp',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  releaseNotesDeliveriesList: {
    method: 'GET',
    path: `${RELEASE_NOTES}/subscriptions/{subscriptionId}/deliveries`,
    pathParams: { subscriptionId: SUBSCRIPTION_ID },
    handler: 'release-notes/http/release-notes-deliveries-list',
    area: 'releaseNotes',
    auth: 'signingSecret',
    rateLimit: 'releaseNotesIp',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  adminReleasePeriodPublish: adminRoute({
    method: 'POST',
    path: `${ADMIN}/release-notes/periods`,
    handler: 'release-notes/http/admin-release-period-publish',
    body: 'text',
    grants: ['table:read', 'table:write', 'webhooks:send'],
  }),
});
