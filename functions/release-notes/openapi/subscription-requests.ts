/**
 * The request of POST /api/v1/release-notes/subscriptions, its body in `zod/mini`: the handler parses
 * with it (its messages are zod's English ones, naming the field) and the OpenAPI document shows it.
 */
import * as z from 'zod/mini';
import { CHANGE_KINDS } from '../domain/release-notes';
import { CALLBACK_URL_MAX_CHARS } from '../../kernel/domain/webhook-callback';
import { SUBSCRIPTION_LIMITS } from '../domain/webhook-subscription';
import { zodBody } from '../../kernel/http/validation';

const SUBSCRIPTION_CREATE_BODY = z
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
  .check(z.meta({ title: 'SubscriptionCreateRequest' }));

export const SUBSCRIPTION_REQUESTS = {
  releaseNotesSubscriptionCreate: { body: zodBody(SUBSCRIPTION_CREATE_BODY, { required: true }) },
};
