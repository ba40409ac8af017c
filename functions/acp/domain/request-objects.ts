/**
 * The objects of ACP 2026-04-17's checkout requests, as checks: closed where the protocol's schema
 * says `additionalProperties: false`, with their required members, JSON types and enums. Most of them
 * are hints this platform accepts and never stores (see checkout-request.ts); they are still held to
 * the protocol, so a malformed or padded hint is a 400 rather than silently passed over.
 */
import { anyObject, arrayOf, boolean, check, either, integer, invalid, label, object, own, pick, scalarMap, string, type Check } from './request-shape';

const text = string({ max: 256 });

/** ACP `Address`, as kept for fulfillment and billing: every member a string of at most 256 characters. */
export const ADDRESS = object(
  {
    name: text,
    line_one: text,
    line_two: text,
    city: text,
    state: text,
    country: text,
    postal_code: text,
    company: text,
  },
  {
    required: ['name', 'line_one', 'city', 'state', 'country', 'postal_code'],
    also: (a, at) => {
      if (!/^[A-Za-z]{2}$/.test(a.country as string)) throw invalid('invalid', `${label(at)}.country must be an ISO 3166-1 alpha-2 code`, `${at}.country`);
    },
  },
);

/** ACP `FulfillmentDetails`. */
export const FULFILLMENT_DETAILS = object({ name: text, phone_number: text, email: string({ max: 320, format: 'email' }), address: ADDRESS });

/** The most regions a buyer's tax exemption names (the buyer is kept with the session). */
const MAX_EXEMPT_REGIONS = 100;

const EXEMPT_REGIONS = check(
  (v, at) => {
    arrayOf(text).read(v, at);
    if ((v as unknown[]).length > MAX_EXEMPT_REGIONS) throw invalid('invalid', `${label(at)}: at most ${MAX_EXEMPT_REGIONS} regions`, at);
  },
  { ...arrayOf(text).schema, maxItems: MAX_EXEMPT_REGIONS },
);

/**
 * ACP `Buyer` with its `CompanyInfo`, `LoyaltyInfo` and `TaxExemption`, kept with the session and shown
 * on it as given: every string at most 256 characters (the email 320), like an address.
 */
export const BUYER = object(
  {
    first_name: text,
    last_name: text,
    full_name: text,
    email: string({ max: 320, format: 'email' }),
    phone_number: text,
    customer_id: text,
    account_type: string({ oneOf: ['guest', 'registered', 'business'] }),
    authentication_status: string({ oneOf: ['authenticated', 'guest', 'requires_signin'] }),
    company: object({ name: text, tax_id: text, department: text, cost_center: text }, { required: ['name'] }),
    loyalty: object({ tier: text, points_balance: integer(), member_since: string({ format: 'date-time' }) }),
    tax_exemption: object(
      {
        certificate_id: text,
        certificate_type: string({ oneOf: ['resale', 'exempt_organization', 'government'] }),
        exempt_regions: EXEMPT_REGIONS,
        expires_at: string({ format: 'date-time' }),
      },
      { required: ['certificate_id', 'certificate_type'] },
    ),
  },
  { required: ['email'] },
);

const BUYER_MEMBERS = ['first_name', 'last_name', 'full_name', 'email', 'phone_number', 'customer_id', 'account_type', 'authentication_status'];
const BUYER_OBJECTS: Readonly<Record<string, readonly string[]>> = {
  company: ['name', 'tax_id', 'department', 'cost_center'],
  loyalty: ['tier', 'points_balance', 'member_since'],
  tax_exemption: ['certificate_id', 'certificate_type', 'exempt_regions', 'expires_at'],
};

/** A checked ACP `Buyer` as kept: a fresh object of its members, never the request's own. */
export function buyerOf(value: unknown, at: string): Record<string, unknown> {
  BUYER.read(value, at);
  const buyer = value as Record<string, unknown>;
  const kept = pick(buyer, BUYER_MEMBERS);
  for (const [name, members] of Object.entries(BUYER_OBJECTS)) {
    const inner = own(buyer, name) as Record<string, unknown> | undefined;
    if (inner === undefined) continue;
    const copy = pick(inner, members);
    if (Array.isArray(copy.exempt_regions)) copy.exempt_regions = [...copy.exempt_regions];
    kept[name] = copy;
  }
  return kept;
}

/**
 * ACP `AffiliateAttribution`: the one request object the protocol leaves open ("servers SHOULD ignore
 * unknown fields"), so only its known members are checked; its `source` is closed.
 */
export const AFFILIATE_ATTRIBUTION = object(
  {
    provider: string(),
    token: string(),
    publisher_id: string(),
    campaign_id: string(),
    creative_id: string(),
    sub_id: string(),
    source: object({ type: string({ oneOf: ['url', 'platform', 'unknown'] }), url: string() }, { required: ['type'] }),
    issued_at: string({ format: 'date-time' }),
    expires_at: string({ format: 'date-time' }),
    metadata: scalarMap,
    touchpoint: string({ oneOf: ['first', 'last'] }),
  },
  {
    open: true,
    required: ['provider'],
    also: (a, at) => {
      if (own(a, 'token') === undefined && own(a, 'publisher_id') === undefined)
        throw invalid('missing', `${label(at)} needs a token or a publisher_id`, `${at}.token`);
    },
  },
);

const EXTENSION_DECLARATION = object({ name: string(), extends: arrayOf(string()), schema: string(), spec: string() }, { required: ['name'] });

/** ACP `Capabilities` of the agent. */
export const CAPABILITIES = object({
  // Seller-side in ACP (the handlers a session offers): an agent has no reason to send them, and they are never read.
  payment: object({ handlers: arrayOf(anyObject) }, { required: ['handlers'] }),
  interventions: object({
    supported: arrayOf(string({ oneOf: ['3ds', 'biometric', 'address_verification'] })),
    required: arrayOf(string({ oneOf: ['3ds', 'biometric'] })),
    enforcement: string({ oneOf: ['always', 'conditional', 'optional'] }),
    display_context: string({ oneOf: ['native', 'webview', 'modal', 'redirect'] }),
    redirect_context: string({ oneOf: ['in_app', 'external_browser', 'none'] }),
    max_redirects: integer(0),
    max_interaction_depth: integer(1),
  }),
  extensions: either(arrayOf(string()), arrayOf(EXTENSION_DECLARATION)),
});

/** ACP `FulfillmentGroup`. */
export const FULFILLMENT_GROUP = object(
  {
    id: string(),
    item_ids: arrayOf(string()),
    destination_type: string({ oneOf: ['shipping', 'pickup', 'local_delivery', 'digital'] }),
    fulfillment_details: FULFILLMENT_DETAILS,
    location_id: string(),
    instructions: string(),
  },
  { required: ['id', 'item_ids', 'destination_type'] },
);

/** ACP `RiskSignals`. */
export const RISK_SIGNALS = object({
  ip_address: string(),
  user_agent: string(),
  accept_language: string(),
  session_id: string(),
  device_fingerprint: string(),
});

const OUTCOMES_WITH_DETAILS = ['authenticated', 'informational', 'attempt_acknowledged'];

/** ACP `AuthenticationResult` (3-D Secure), whose details are required for the outcomes that carry them. */
export const AUTHENTICATION_RESULT = object(
  {
    outcome: string({
      oneOf: [
        'abandoned',
        'attempt_acknowledged',
        'authenticated',
        'canceled',
        'denied',
        'informational',
        'internal_error',
        'not_supported',
        'processing_error',
        'rejected',
      ],
    }),
    outcome_details: object(
      {
        three_ds_cryptogram: string(),
        electronic_commerce_indicator: string({ oneOf: ['01', '02', '05', '06', '07'] }),
        transaction_id: string(),
        version: string(),
      },
      { required: ['three_ds_cryptogram', 'electronic_commerce_indicator', 'transaction_id', 'version'] },
    ),
  },
  {
    required: ['outcome'],
    also: (r, at) => {
      if (OUTCOMES_WITH_DETAILS.includes(r.outcome as string) && own(r, 'outcome_details') === undefined) {
        throw invalid('missing', `${label(at)}.outcome_details is required when the outcome is ${r.outcome as string}`, `${at}.outcome_details`);
      }
    },
  },
);

/** ACP `MarketingConsent`. */
export const MARKETING_CONSENT = object({ channel: string(), opted_in: boolean }, { required: ['channel', 'opted_in'] });

/**
 * ACP `IntentTrace`. Its `reason_code` enum is extensible (servers accept values they do not know), so
 * any string is a reason. ACP's schema does not mark it closed; it is held closed here like every other
 * request object of this platform.
 */
export const INTENT_TRACE = object({ reason_code: string(), trace_summary: string({ max: 500 }), metadata: scalarMap }, { required: ['reason_code'] });

/** The most lines a checkout session holds. */
export const MAX_LINE_ITEMS = 100;

/** A product named by a line item: a string here, a UUID of the app's product once chosen (parseLineItems). */
const productRef: Check = check(
  (v, at) => {
    if (typeof v !== 'string') throw invalid('invalid_item_id', `${label(at)} must be the UUID of a product`, at);
  },
  { type: 'string', description: 'The UUID of a product of the app' },
);

/**
 * A line item as this platform takes it: ACP `Item` (`id`, `name`, `unit_amount`), the spec's
 * `product_id` and `quantity`, and ACP's `{item: Item}` form. `name` and `unit_amount` are the client's
 * hints (the catalog decides both); they are still held to their JSON types.
 */
export const LINE_ITEM = object(
  {
    product_id: productRef,
    id: productRef,
    item: object({ id: productRef, name: string(), unit_amount: integer() }, { required: ['id'] }),
    quantity: integer(),
    name: string(),
    unit_amount: integer(),
  },
  {
    description:
      'Names a product by its UUID as product_id, id or item.id (the first present); quantity defaults to 1; name and unit_amount are ignored (the catalog decides)',
  },
);
