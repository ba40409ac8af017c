/**
 * The requests of the admin API's org and app routes, one declaration per operation (keyed by route
 * id): the handlers read their input with it. Bodies are `zod/mini` schemas (their 400s quote zod's
 * English messages); path ids are UUIDs.
 */
import * as z from 'zod/mini';
import { uuidPathId } from '../../kernel/http/request-declaration';
import { zodBody } from '../../kernel/http/validation';
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

const name = z.string().check(z.minLength(1), z.maxLength(200));

export const orgCreateRequest = z.strictObject({ name, plan: z.enum(['free', 'paid']) });
export const orgUpdateRequest = z.strictObject({ name: z.optional(name), plan: z.optional(z.enum(['free', 'paid'])) });
export const appCreateRequest = z.strictObject({
  name,
  slug: z.optional(z.string().check(z.minLength(1), z.maxLength(48))),
  settings: z.optional(appSettingsPatch),
});
export const appUpdateRequest = z.strictObject({ name: z.optional(name), settings: z.optional(appSettingsPatch) });
export const creditsAddRequest = z.strictObject({ amountUsd: z.string().check(z.minLength(1), z.maxLength(32)) });

const org = { orgId: uuidPathId('orgId') };
const app = { appId: uuidPathId('appId') };

export const ADMIN_REQUESTS = {
  adminOrgCreate: { body: zodBody(orgCreateRequest, { required: true }) },
  adminOrgUpdate: { path: org, body: zodBody(orgUpdateRequest, { required: true }) },
  adminOrgCreditsAdd: { path: org, body: zodBody(creditsAddRequest, { required: true }) },
  adminAppCreate: { path: org, body: zodBody(appCreateRequest, { required: true }) },
  adminAppUpdate: { path: app, body: zodBody(appUpdateRequest, { required: true }) },
};
