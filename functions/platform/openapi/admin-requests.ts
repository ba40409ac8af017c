/**
 * The bodies of the admin API's tenancy routes (orgs, credits, apps, keys) and the fields other admin
 * bodies share, in `zod/mini`: the handlers parse with them (platform/http/validation.ts `parseWith`)
 * and the admin OpenAPI document shows them, so the two are one declaration. Strict objects: a
 * misspelt field is a 400 naming it, never ignored.
 */
import * as z from 'zod/mini';
import { MAX_TAX_RATE_BPS } from '../domain/app';
import { ORG_SCOPES } from '../domain/scopes';
import { parseIsoToMicros } from '../domain/time';

/** An ISO 8601 timestamp with `Z` or an offset, as microseconds. */
export const isoTimestamp = z.pipe(
  z.string().check(z.meta({ format: 'date-time', description: 'ISO 8601 with Z or an offset' })),
  z.transform((value: string, ctx) => {
    const us = parseIsoToMicros(value);
    if (us === undefined) {
      ctx.issues.push({ code: 'custom', message: 'must be an ISO 8601 timestamp (e.g. 2026-01-31T12:00:00.000Z)', input: value });
      return z.NEVER;
    }
    return us;
  }),
);

/**
 * An https URL shown to buyers (an ACP `Link.url`): of RFC 3986 characters only (anything else
 * percent-encoded), so it is the JSON Schema `uri` an agent validates exactly as the merchant set it.
 */
const policyUrl = z.nullable(
  z
    .url({ protocol: /^https$/, hostname: z.regexes.domain, error: 'must be an https URL' })
    .check(
      z.maxLength(2048),
      z.regex(/^(?:[A-Za-z0-9._~:/?#@!$&'()*+,;=-]|%[0-9A-Fa-f]{2})+$/, 'must be an https URL of RFC 3986 characters (percent-encode others)'),
    ),
);

export const appSettingsPatch = z.partial(
  z.strictObject({
    zeroDataRetention: z.boolean(),
    imageInput: z.partial(z.strictObject({ enabled: z.boolean(), maxPerConversation: z.int().check(z.minimum(0), z.maximum(1000)) })),
    model: z.string().check(z.minLength(1), z.maxLength(200)),
    mcpConnections: z
      .array(
        z.strictObject({
          name: z.string().check(z.minLength(1), z.maxLength(64)),
          url: z.url().check(z.maxLength(2048)),
          // HTTP token characters only: an invalid name would fail every turn of the app.
          headers: z._default(
            z.record(z.string().check(z.regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/, 'must be an HTTP header name')), z.string().check(z.maxLength(4096))),
            {},
          ),
        }),
      )
      .check(z.maxLength(20)),
    monthlyUsageCapUsd: z.nullable(z.string().check(z.regex(/^\d{1,9}(\.\d{1,12})?$/, 'must be a decimal USD amount such as "50.00"'))),
    acp: z.partial(
      z.strictObject({
        termsOfUseUrl: policyUrl,
        privacyPolicyUrl: policyUrl,
        returnPolicyUrl: policyUrl,
        taxRateBps: z.int().check(z.minimum(0), z.maximum(MAX_TAX_RATE_BPS)),
      }),
    ),
  }),
);

const name = z.string().check(z.minLength(1), z.maxLength(200));

export const ORG_CREATE_BODY = z.strictObject({ name, plan: z.enum(['free', 'paid']) }).check(z.meta({ title: 'OrgCreateRequest' }));

export const ORG_CREDITS_BODY = z
  .strictObject({ amountUsd: z.string().check(z.minLength(1), z.maxLength(32), z.meta({ description: 'A decimal USD amount such as "100.00"' })) })
  .check(z.meta({ title: 'CreditsAddRequest' }));

export const APP_CREATE_BODY = z
  .strictObject({
    name,
    slug: z.optional(z.string().check(z.minLength(1), z.maxLength(48))),
    settings: z.optional(appSettingsPatch),
  })
  .check(z.meta({ title: 'AppCreateRequest' }));

export const APP_UPDATE_BODY = z.strictObject({ name: z.optional(name), settings: z.optional(appSettingsPatch) }).check(z.meta({ title: 'AppUpdateRequest' }));

/** A chat or ACP key of one app: both fields optional (an empty body is an empty object). */
export const APP_KEY_CREATE_BODY = z
  .strictObject({ name: z.optional(name), expiresAt: z.optional(isoTimestamp) })
  .check(z.meta({ title: 'AppKeyCreateRequest' }));

export const ORG_KEY_CREATE_BODY = z
  .strictObject({
    scopes: z.array(z.enum(ORG_SCOPES as [string, ...string[]])).check(z.minLength(1)),
    expiresAt: z.optional(isoTimestamp),
    name: z.optional(name),
  })
  .check(z.meta({ title: 'OrgKeyCreateRequest' }));
