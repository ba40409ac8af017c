/**
 * Area D's requests, one schema per operation: the handlers parse with it and the OpenAPI document
 * shows it, so the two are one declaration. The subscription body, the one in `zod/mini`, has a
 * module of its own (subscription-requests.ts), so the feed's bundle carries no zod.
 */
import { badRequest } from '../../platform/domain/errors';
import { queryParam } from '../../platform/openapi/query-param-requests';

/** The longest `area` keyword the feed filters by. */
export const FEED_AREA_MAX_CHARS = 200;

export const RELEASE_NOTES_REQUESTS = {
  releaseNotesFeed: {
    // Other names are ignored: area D has no rule for them.
    query: {
      area: queryParam({ maxLength: FEED_AREA_MAX_CHARS, description: 'Only periods with an item in this area' }, (raw) => {
        if (raw.length > FEED_AREA_MAX_CHARS) throw badRequest(`Invalid area: at most ${FEED_AREA_MAX_CHARS} characters`);
        return raw;
      }),
    },
  },
} as const;
