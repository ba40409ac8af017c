/**
 * The app settings an operator may change (the admin API's app create and update), checked with
 * zod/mini like every admin body (validation.ts).
 */
import * as z from 'zod/mini';
import { MAX_TAX_RATE_BPS } from '../domain/app';

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
