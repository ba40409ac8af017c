/**
 * Area C's wire shapes for the OpenAPI document: the catalog, discovery and agent card, the checkout
 * request bodies and session, and the area's error bodies (document.ts answers ACP routes' errors in
 * them, authentication aside).
 */
import * as z from 'zod';
import { isoTime, uuid } from '../../platform/openapi/openapi-kit';

export const rateLimitedAcp = z.object({ error: z.string() }).meta({ title: 'AcpRateLimited', description: 'Area C 429: `{ error: string }`' });
export const acpError = z
  .object({
    type: z.enum(['invalid_request', 'request_not_idempotent', 'processing_error', 'service_unavailable']),
    code: z.string(),
    message: z.string(),
    param: z.optional(z.string()),
    supported_versions: z.optional(z.array(z.string())),
  })
  .meta({ title: 'AcpError', description: 'The ACP `Error` object (area C errors other than authentication and 429)' });

const minor = z.int().meta({ description: 'Amount in minor units (1800 = 18.00)' });
export const acpProducts = z
  .object({
    products: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        variants: z.array(z.object({ id: z.string(), title: z.string(), price: z.object({ amount: minor, currency: z.string() }) })),
      }),
    ),
  })
  .meta({ title: 'ProductsResponse', description: 'The ACP feed `ProductsResponse` (active products)' });
export const acpDiscovery = z
  .object({ protocol: z.object({ name: z.literal('acp'), version: z.string() }), api_base_url: z.string() })
  .meta({ title: 'DiscoveryResponse' });
export const agentCard = z
  .object({ name: z.string(), url: z.string(), version: z.string() })
  .meta({ title: 'AgentCard', description: 'An A2A agent card describing the checkout' });
// Checkout request bodies: closed at every depth like ACP's request objects (an undefined member is a 400 naming it).
const opt = z.optional;
const text = z.string().max(256);
const strings = (...keys: string[]) => Object.fromEntries(keys.map((k) => [k, opt(z.string())]));
const hint = (schema: z.ZodType) => opt(schema.meta({ description: 'A hint with no effect, never stored; checked against its ACP object' }));
const scalarMap = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
const acpAddress = z.strictObject({
  name: text,
  line_one: text,
  line_two: opt(text),
  city: text,
  state: text,
  country: text.meta({ description: 'ISO 3166-1 alpha-2' }),
  postal_code: text,
  company: opt(text),
});
const email = z.string().max(320).meta({ format: 'email' });
const fulfillmentDetails = z.strictObject({ name: opt(text), phone_number: opt(text), email: opt(email), address: opt(acpAddress) });
const acpBuyer = z.strictObject({
  ...Object.fromEntries(['first_name', 'last_name', 'full_name', 'phone_number', 'customer_id'].map((k) => [k, opt(text)])),
  email: email.meta({ description: 'The only member of the buyer that is kept' }),
  account_type: opt(z.enum(['guest', 'registered', 'business'])),
  authentication_status: opt(z.enum(['authenticated', 'guest', 'requires_signin'])),
  company: opt(z.strictObject({ name: z.string(), ...strings('tax_id', 'department', 'cost_center') })),
  loyalty: opt(z.strictObject({ tier: opt(z.string()), points_balance: opt(z.int()), member_since: opt(isoTime) })),
  tax_exemption: opt(
    z.strictObject({
      certificate_id: z.string(),
      certificate_type: z.enum(['resale', 'exempt_organization', 'government']),
      exempt_regions: opt(z.array(z.string())),
      expires_at: opt(isoTime),
    }),
  ),
});
const affiliateAttribution = z
  .looseObject({
    provider: z.string(),
    ...strings('token', 'publisher_id', 'campaign_id', 'creative_id', 'sub_id'),
    source: opt(z.strictObject({ type: z.enum(['url', 'platform', 'unknown']), url: opt(z.string()) })),
    issued_at: opt(isoTime),
    expires_at: opt(isoTime),
    metadata: opt(scalarMap),
    touchpoint: opt(z.enum(['first', 'last'])),
  })
  .meta({ description: 'A hint, never stored; needs token or publisher_id. Open: ACP asks servers to ignore its unknown members' });
const fulfillmentGroups = z.array(
  z.strictObject({
    id: z.string(),
    item_ids: z.array(z.string()),
    destination_type: z.enum(['shipping', 'pickup', 'local_delivery', 'digital']),
    fulfillment_details: opt(fulfillmentDetails),
    ...strings('location_id', 'instructions'),
  }),
);
const interventions = z.strictObject({
  supported: opt(z.array(z.enum(['3ds', 'biometric', 'address_verification']))),
  required: opt(z.array(z.enum(['3ds', 'biometric']))),
  enforcement: opt(z.enum(['always', 'conditional', 'optional'])),
  display_context: opt(z.enum(['native', 'webview', 'modal', 'redirect'])),
  redirect_context: opt(z.enum(['in_app', 'external_browser', 'none'])),
  max_redirects: opt(z.int().min(0)),
  max_interaction_depth: opt(z.int().min(1)),
});
const capabilities = z.strictObject({
  payment: opt(z.strictObject({ handlers: z.array(z.object({})) })),
  interventions: opt(interventions),
  extensions: opt(z.array(z.string())),
});
const lineItemInput = z
  .strictObject({
    product_id: opt(uuid),
    id: opt(z.string()),
    item: opt(z.strictObject({ id: z.string(), name: opt(z.string()), unit_amount: opt(z.int()) })),
    quantity: opt(z.int().min(1).max(10_000)),
    name: opt(z.string()),
    unit_amount: opt(z.int()),
  })
  .meta({
    description: 'Names a product by its UUID as product_id, id or item.id (the first present); name and unit_amount are ignored (the catalog decides)',
  });
const codes = {
  discounts: opt(z.strictObject({ codes: opt(z.array(z.string().max(64)).max(20)) })),
  coupons: opt(z.array(z.string().max(64))),
  order_notes: opt(z.string().max(5000)),
};
const createFields = {
  currency: opt(z.string()),
  buyer: opt(acpBuyer),
  capabilities: hint(capabilities),
  fulfillment_details: opt(fulfillmentDetails),
  fulfillment_groups: hint(fulfillmentGroups),
  affiliate_attribution: opt(affiliateAttribution),
  locale: opt(z.string().max(35)),
  timezone: opt(z.string().max(64)),
  quote_id: hint(z.string()),
  metadata: opt(z.record(z.string(), z.unknown()).meta({ description: 'At most 4096 bytes of JSON; keys named like Object.prototype members are refused' })),
  ...codes,
};
const lineItems = z.array(lineItemInput).min(1).max(100);
export const checkoutCreate = z
  .union([z.strictObject({ line_items: lineItems, ...createFields }), z.strictObject({ items: lineItems, ...createFields })])
  .meta({
    title: 'CheckoutSessionCreateRequest',
    description:
      'ACP 2026-04-17 create request, closed at every depth: an undefined member is a 400 naming it. The 2025-09-29 `items` is accepted in place of `line_items`',
  });
export const checkoutUpdate = z
  .strictObject({
    line_items: opt(lineItems),
    items: opt(lineItems.meta({ description: 'The 2025-09-29 name of `line_items`' })),
    buyer: opt(z.nullable(acpBuyer)),
    fulfillment_details: opt(fulfillmentDetails),
    fulfillment_groups: hint(fulfillmentGroups),
    selected_fulfillment_options: opt(z.array(z.strictObject({ type: z.literal('digital'), option_id: z.literal('digital'), item_ids: z.array(z.string()) }))),
    ...codes,
  })
  .meta({ title: 'CheckoutSessionUpdateRequest' });
const credential = z.strictObject({ type: z.string().meta({ description: '`spt` (a shared payment token)' }), token: z.string().min(1).max(1024) });
const paymentData = z.union([
  z.strictObject({
    handler_id: opt(z.string()).meta({ description: 'Required when the session offers more than one handler' }),
    instrument: z.strictObject({ type: z.string().meta({ description: "`card` (the type this platform's handlers take)" }), credential }),
    billing_address: opt(acpAddress),
    payment_terms: opt(z.literal('immediate')),
    due_date: opt(isoTime),
    approval_required: opt(z.literal(false)),
  }),
  z.strictObject({ token: z.string().min(1).max(1024), provider: opt(z.string()), billing_address: opt(acpAddress) }).meta({ description: 'ACP 2025-09-29' }),
]);
const outcomes = [
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
] as const;
const authenticationResult = z.strictObject({
  outcome: z.enum(outcomes),
  outcome_details: opt(
    z.strictObject({ three_ds_cryptogram: z.string(), electronic_commerce_indicator: z.string(), transaction_id: z.string(), version: z.string() }),
  ),
});
export const checkoutComplete = z
  .strictObject({
    payment_data: paymentData.meta({ description: 'B2B payment (purchase_order_number, deferred payment_terms, approval_required) is a 400 `unsupported`' }),
    buyer: opt(acpBuyer),
    authentication_result: hint(authenticationResult),
    affiliate_attribution: opt(affiliateAttribution),
    risk_signals: hint(z.strictObject(strings('ip_address', 'user_agent', 'accept_language', 'session_id', 'device_fingerprint'))),
    marketing_consents: hint(z.array(z.strictObject({ channel: z.string(), opted_in: z.boolean() }))),
    order_notes: opt(z.string().max(5000)),
  })
  .meta({ title: 'CheckoutSessionCompleteRequest' });
const intentTrace = z.strictObject({
  reason_code: z.string().meta({ description: 'Any string: the ACP enum is extensible' }),
  trace_summary: opt(z.string().max(500)),
  metadata: opt(scalarMap),
});
export const checkoutCancel = z.strictObject({ intent_trace: hint(intentTrace) }).meta({ title: 'CancelSessionRequest' });
export const checkoutSession = z
  .object({
    id: uuid,
    protocol: z.object({ version: z.string() }),
    status: z.enum(['not_ready_for_payment', 'ready_for_payment', 'complete_in_progress', 'completed', 'canceled', 'expired']),
    currency: z.string(),
    line_items: z.array(z.object({ id: z.string(), product_id: uuid, quantity: z.int(), unit_amount: minor })),
    totals: z.array(z.object({ type: z.string(), display_text: z.string(), amount: minor })),
    fulfillment_options: z.array(z.object({ type: z.string(), id: z.string() })),
    messages: z.array(z.object({ type: z.string(), content: z.string() })),
    links: z.array(z.unknown()),
    capabilities: z.object({}),
    created_at: isoTime,
    updated_at: isoTime,
    expires_at: isoTime,
    order: z.optional(z.object({ type: z.literal('order'), id: uuid, checkout_session_id: uuid, permalink_url: z.string(), status: z.string() })),
  })
  .meta({ title: 'CheckoutSession', description: 'The ACP `CheckoutSession` (with `order` once completed)' });
