/**
 * Area D's requests, one schema per operation: the handlers parse with it and the OpenAPI document
 * shows it, so the two are one declaration. `zod/mini` only: this module is in area D's bundles.
 */
import * as z from 'zod/mini';
import { badRequest } from '../../platform/domain/errors';
import { queryParam } from '../../platform/openapi/query-param-requests';
import { CHANGE_KINDS } from '../domain/release-notes';
import { CALLBACK_URL_MAX_CHARS } from '../domain/webhook-callback';
import { SUBSCRIPTION_LIMITS } from '../domain/webhook-subscription';

/** The longest `area` keyword the feed filters by. */
export const FEED_AREA_MAX_CHARS = 200;

export const RELEASE_NOTES_REQUESTS = {
  releaseNotesFeed: {
    // Other names are ignored: area D has no rule for them.
    query: z.object({
      area: queryParam({ maxLength: FEED_AREA_MAX_CHARS, description: 'Only periods with an item in this area' }, (raw) => {
        if (raw.length > FEED_AREA_MAX_CHARS) throw badRequest(`Invalid area: at most ${FEED_AREA_MAX_CHARS} characters`);
        return raw;
      }),
    }),
  },
  releaseNotesSubscriptionCreate: {
    body: z
      .strictObject({
        callbackUrl: z
          .string()
          .check(
            z.minLength(1),
            z.maxLength(CALLBACK_URL_MAX_CHARS),
            z.meta({ format: 'uri', description: 'HTTPS; not a private, loopback or link-local address' }),
          ),
        areas: z.optional(z.array(z.string().check(z.maxLength(SUBSCRIPTION_LIMITS.areaChars))).check(z.maxLength(SUBSCRIPTION_LIMITS.areas))),
        categories: z.optional(z.array(z.enum(CHANGE_KINDS)).check(z.maxLength(CHANGE_KINDS.length * 2))),
      })
      .check(z.meta({ title: 'SubscriptionCreateRequest' })),
  },
} as const;
