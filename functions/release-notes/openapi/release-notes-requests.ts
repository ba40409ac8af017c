/**
 * Area D's requests, one declaration per operation (keyed by route id): the handlers read with it and
 * the OpenAPI document shows it, so the two are one declaration. The subscription body, the one in
 * `zod/mini`, has a module of its own (subscription-requests.ts), so the feed's bundle carries no zod.
 */
import { badRequest } from '../../kernel/domain/errors';
import { param, uuidPathId, type RequestDeclaration } from '../../kernel/http/request-declaration';

/** The longest `area` keyword the feed filters by. */
export const FEED_AREA_MAX_CHARS = 200;

const subscription = { path: { subscriptionId: uuidPathId('subscriptionId') } };

export const RELEASE_NOTES_REQUESTS = {
  releaseNotesFeed: {
    // Other names are ignored: area D has no rule for them.
    query: {
      area: param({ maxLength: FEED_AREA_MAX_CHARS, description: 'Only periods with an item in this area' }, (raw) => {
        if (raw.length > FEED_AREA_MAX_CHARS) throw badRequest(`Invalid area: at most ${FEED_AREA_MAX_CHARS} characters`);
        return raw;
      }),
    },
  },
  releaseNotesSubscriptionDelete: subscription,
  releaseNotesDeliveriesList: subscription,
} as const satisfies Readonly<Record<string, RequestDeclaration>>;
