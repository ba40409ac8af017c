/**
 * The request bodies of area C's checkout routes, checked against ACP 2026-04-17, whose request
 * objects are closed (`additionalProperties: false`): a field the protocol does not define for the
 * operation, at any depth, is a 400 naming it, never silently dropped. What each known field does here:
 * - acted on: `line_items` (and the 2025-09-29 `items`), `currency`, `payment_data`,
 *   `selected_fulfillment_options` (checked: only the digital option exists, auto-selected; a line is
 *   named by its line item id or, as ACP's examples do, by its item id), `authentication_result` (an
 *   outcome that says the buyer was not authenticated is not charged: payment-data.ts);
 * - kept and shown on the session as given: `buyer` (all of it), `fulfillment_details` (also for
 *   digital goods, which need no address: it is the buyer's contact), `locale`, `timezone`,
 *   `metadata`, `discounts.codes` / `coupons` (every code answered as rejected: this platform has no
 *   discount codes);
 * - kept with the order, which the session shape has no field for: `order_notes`;
 * - answered on the session: `capabilities.interventions` (the intersection with the interventions
 *   this platform runs, none: `{supported: [], required: []}`);
 * - accepted as hints with no effect, never stored (ACP lets a merchant ignore them, and the session
 *   has no field for them): the rest of `capabilities`, `fulfillment_groups`, `affiliate_attribution`,
 *   `quote_id`, `risk_signals`, `marketing_consents` (ACP: ignored unless the session offered its
 *   channel in `marketing_consent_options`, and it offers none), `intent_trace`. Each is still checked
 *   against its ACP object (request-objects.ts).
 * See docs/adr/0017.
 */
import {
  AFFILIATE_ATTRIBUTION,
  AUTHENTICATION_RESULT,
  BUYER,
  buyerOf,
  CAPABILITIES,
  FULFILLMENT_DETAILS,
  FULFILLMENT_GROUP,
  INTENT_TRACE,
  LINE_ITEM,
  MARKETING_CONSENT,
  MAX_LINE_ITEMS,
  RISK_SIGNALS,
} from './request-objects';
import { PAYMENT_DATA_SCHEMA } from './payment-data';
import { isRecord } from '../../kernel/domain/request-rule';
import {
  actedOn,
  arrayOf,
  check,
  described,
  invalid,
  label,
  memberPath,
  object,
  own,
  pick,
  storableJson,
  string,
  type Check,
  type JsonSchema,
} from './request-shape';

export type CheckoutOperation = 'create' | 'update' | 'complete' | 'cancel';

export const MAX_ORDER_NOTES = 5000;
const MAX_METADATA_JSON = 4096;
/** Well inside DynamoDB's 32 levels of an item, the session's own nesting included. */
const MAX_METADATA_DEPTH = 16;
const MAX_CODES = 20;
const LOCALE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

const CODE = string({ max: 64 });
const DISCOUNTS = object({ codes: arrayOf(CODE) });
const SELECTED_OPTION = object({ type: string(), option_id: string(), item_ids: arrayOf(string()) }, { required: ['type', 'option_id', 'item_ids'] });

/** `buyer: null` clears the session's buyer. */
const buyer: Check = check(
  (v, at) => {
    if (v !== null) BUYER.read(v, at);
  },
  { anyOf: [BUYER.schema, { type: 'null', description: 'Clears the buyer' }] },
);

const lineItems = (description: string) => actedOn({ type: 'array', items: LINE_ITEM.schema, minItems: 1, maxItems: MAX_LINE_ITEMS, description });
/** Checked further here (checkRequestFields) or by the use case that acts on them (line items, currency). */
const LINE_ITEMS = lineItems('The lines: each names a product of the app and a quantity');
const ITEMS = lineItems('The 2025-09-29 name of line_items (send one of the two)');
const CURRENCY = actedOn({ type: 'string', pattern: '^[A-Za-z]{3}$', description: 'ISO 4217; the catalog’s currency when absent' });
const FULFILLMENT = actedOn(FULFILLMENT_DETAILS.schema);
const LOCALE_FIELD = actedOn({ type: 'string', maxLength: 35, pattern: LOCALE.source, description: 'A BCP 47 language tag such as en-US' });
const TIMEZONE = actedOn({ type: 'string', maxLength: 64 });
const METADATA = actedOn({
  type: 'object',
  description: `At most ${MAX_METADATA_JSON} bytes of JSON, nested at most ${MAX_METADATA_DEPTH} levels; keys named like Object.prototype members are refused`,
});
const DISCOUNTS_FIELD = actedOn({ ...DISCOUNTS.schema, description: `At most ${MAX_CODES} codes with coupons; every code is answered as rejected` });
const COUPONS = actedOn(arrayOf(CODE).schema);
const ORDER_NOTES = actedOn({ type: 'string', maxLength: MAX_ORDER_NOTES });
const SELECTED_OPTIONS = actedOn({
  type: 'array',
  items: {
    ...SELECTED_OPTION.schema,
    properties: { type: { const: 'digital' }, option_id: { const: 'digital' }, item_ids: { type: 'array', items: { type: 'string' } } },
  },
  description: 'The only option is digital; item_ids name the session’s line items, each by its line item id or its item id',
});
const PAYMENT_DATA_FIELD = actedOn({
  ...PAYMENT_DATA_SCHEMA,
  description: 'B2B payment (purchase_order_number, deferred payment_terms, approval_required) is a 400 `unsupported`',
});
/** A hint this platform neither stores nor acts on, still held to its ACP object. */
const hint = (c: Check) => described(c, 'A hint with no effect, never stored; checked against its ACP object');

/** The fields of each operation's ACP request: the one declaration the checks run and the document shows. */
const FIELDS: Record<CheckoutOperation, Readonly<Record<string, Check>>> = {
  create: {
    line_items: LINE_ITEMS,
    items: ITEMS,
    currency: CURRENCY,
    buyer,
    capabilities: hint(CAPABILITIES),
    fulfillment_details: FULFILLMENT,
    fulfillment_groups: hint(arrayOf(FULFILLMENT_GROUP)),
    affiliate_attribution: AFFILIATE_ATTRIBUTION,
    discounts: DISCOUNTS_FIELD,
    coupons: COUPONS,
    locale: LOCALE_FIELD,
    timezone: TIMEZONE,
    quote_id: hint(string()),
    metadata: METADATA,
    order_notes: ORDER_NOTES,
  },
  update: {
    line_items: LINE_ITEMS,
    items: ITEMS,
    buyer,
    fulfillment_details: FULFILLMENT,
    fulfillment_groups: hint(arrayOf(FULFILLMENT_GROUP)),
    selected_fulfillment_options: SELECTED_OPTIONS,
    discounts: DISCOUNTS_FIELD,
    coupons: COUPONS,
    order_notes: ORDER_NOTES,
  },
  complete: {
    payment_data: PAYMENT_DATA_FIELD,
    buyer,
    authentication_result: described(
      AUTHENTICATION_RESULT,
      'No session asks for 3-D Secure; an outcome of denied, rejected, canceled or abandoned is not charged (the session stays ready_for_payment with a payment_declined message)',
    ),
    affiliate_attribution: AFFILIATE_ATTRIBUTION,
    risk_signals: hint(RISK_SIGNALS),
    marketing_consents: hint(arrayOf(MARKETING_CONSENT)),
    order_notes: ORDER_NOTES,
  },
  cancel: { intent_trace: hint(INTENT_TRACE) },
};

const BODY_DOCS: Record<CheckoutOperation, JsonSchema> = {
  create: {
    title: 'CheckoutSessionCreateRequest',
    description:
      'ACP 2026-04-17 create request, closed at every depth: an undefined member is a 400 naming it. The 2025-09-29 `items` is accepted in place of `line_items`',
    anyOf: [{ required: ['line_items'] }, { required: ['items'] }],
  },
  update: { title: 'CheckoutSessionUpdateRequest' },
  complete: { title: 'CheckoutSessionCompleteRequest', required: ['payment_data'] },
  cancel: { title: 'CancelSessionRequest' },
};

/** The JSON Schema of an operation's request body, from the same declaration its checks run (for the OpenAPI document). */
export function requestBodySchema(op: CheckoutOperation): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(FIELDS[op]).map(([name, c]) => [name, c.schema])),
    additionalProperties: false,
    ...BODY_DOCS[op],
  };
}

/** What a session keeps of a request beyond its lines, shown back on the session. */
export interface CheckoutDetails {
  /** The ACP `Buyer` as given; null once a request cleared it. Sessions from before it was kept show only their email. */
  readonly buyer?: Record<string, unknown> | null;
  readonly fulfillmentDetails?: Record<string, unknown>;
  readonly locale?: string;
  readonly timezone?: string;
  readonly metadata?: Record<string, unknown>;
  readonly discountCodes?: readonly string[];
  readonly orderNotes?: string;
}

function str(value: unknown, at: string, max: number): string {
  string({ max }).read(value, at);
  return value as string;
}

/** ACP `FulfillmentDetails`, kept as a fresh object of its checked members. */
function fulfillmentDetailsOf(value: unknown): Record<string, unknown> {
  FULFILLMENT_DETAILS.read(value, '$.fulfillment_details');
  const details = value as Record<string, unknown>;
  const address = own(details, 'address') as Record<string, unknown> | undefined;
  return {
    ...pick(details, ['name', 'phone_number', 'email']),
    ...(address ? { address: pick(address, ['name', 'line_one', 'line_two', 'city', 'state', 'country', 'postal_code', 'company']) } : {}),
  };
}

function codesOf(body: Record<string, unknown>): string[] | undefined {
  const discounts = own(body, 'discounts');
  const coupons = own(body, 'coupons');
  if (discounts === undefined && coupons === undefined) return undefined;
  const codes: string[] = [];
  if (discounts !== undefined) {
    DISCOUNTS.read(discounts, '$.discounts');
    codes.push(...((own(discounts as Record<string, unknown>, 'codes') ?? []) as string[]));
  }
  if (coupons !== undefined) {
    arrayOf(CODE).read(coupons, '$.coupons');
    codes.push(...(coupons as string[]));
  }
  if (codes.length > MAX_CODES) throw invalid('invalid', `At most ${MAX_CODES} discount codes`, '$.discounts.codes');
  return [...new Set(codes)];
}

/** The session's lines as a selected fulfillment option may name them. */
export interface SelectableLine {
  readonly lineId?: string;
  readonly productId: string;
}

/**
 * Each `item_ids` entry names a line of the session by its line item id (as ACP's schema describes the
 * field) or by its item id, the product (as ACP's own examples send it).
 */
function checkSelectedOptions(value: unknown, lines: readonly SelectableLine[]): void {
  const at = '$.selected_fulfillment_options';
  arrayOf(SELECTED_OPTION).read(value, at);
  const names = (id: string) => lines.some((l) => l.lineId === id || l.productId === id.toLowerCase());
  (value as Record<string, unknown>[]).forEach((o, i) => {
    if (o.type !== 'digital' || o.option_id !== 'digital')
      throw invalid('invalid', 'The only fulfillment option is { type: "digital", option_id: "digital", item_ids }', `${at}[${i}]`);
    (o.item_ids as string[]).forEach((id, j) => {
      if (!names(id)) throw invalid('invalid', `No line item of the session has the id or item id ${id.slice(0, 64)}`, `${at}[${i}].item_ids[${j}]`);
    });
  });
}

/**
 * Checks a request body's fields for the operation and returns what the session keeps of it (only the
 * fields present: absent ones leave the session's as they are). `lines` are those a selected
 * fulfillment option may name.
 */
export function checkRequestFields(body: Record<string, unknown>, op: CheckoutOperation, lines: readonly SelectableLine[] = []): CheckoutDetails {
  const allowed = FIELDS[op];
  for (const [name, value] of Object.entries(body)) {
    const at = memberPath('$', name);
    const rule = Object.hasOwn(allowed, name) ? allowed[name] : undefined;
    if (rule === undefined) throw invalid('invalid', `Unknown field for this operation: ${label(at)}`, at);
    rule.read(value, at);
  }
  const field = (name: string) => own(body, name);
  const details: { -readonly [K in keyof CheckoutDetails]: CheckoutDetails[K] } = {};
  const buyerField = field('buyer');
  if (buyerField !== undefined) details.buyer = buyerField === null ? null : buyerOf(buyerField, '$.buyer');
  if (field('fulfillment_details') !== undefined) details.fulfillmentDetails = fulfillmentDetailsOf(field('fulfillment_details'));
  if (field('locale') !== undefined) {
    details.locale = str(field('locale'), '$.locale', 35);
    if (!LOCALE.test(details.locale)) throw invalid('invalid', 'locale must be a BCP 47 language tag such as en-US', '$.locale');
  }
  if (field('timezone') !== undefined) details.timezone = str(field('timezone'), '$.timezone', 64);
  const metadata = field('metadata');
  if (metadata !== undefined) {
    if (!isRecord(metadata) || JSON.stringify(metadata).length > MAX_METADATA_JSON)
      throw invalid('invalid', `metadata must be an object of at most ${MAX_METADATA_JSON} bytes of JSON`, '$.metadata');
    storableJson(MAX_METADATA_DEPTH).read(metadata, '$.metadata');
    details.metadata = metadata;
  }
  const codes = codesOf(body);
  if (codes) details.discountCodes = codes;
  if (field('order_notes') !== undefined) details.orderNotes = str(field('order_notes'), '$.order_notes', MAX_ORDER_NOTES);
  if (field('selected_fulfillment_options') !== undefined) checkSelectedOptions(field('selected_fulfillment_options'), lines);
  return details;
}

/** The session fields these details show as (ACP `CheckoutSession`). */
export function detailsView(d: CheckoutDetails) {
  return {
    ...(d.fulfillmentDetails ? { fulfillment_details: d.fulfillmentDetails } : {}),
    ...(d.locale ? { locale: d.locale } : {}),
    ...(d.timezone ? { timezone: d.timezone } : {}),
    ...(d.metadata ? { metadata: d.metadata } : {}),
    ...(d.discountCodes
      ? {
          discounts: {
            codes: [...d.discountCodes],
            applied: [],
            rejected: d.discountCodes.map((code) => ({ code, reason: 'discount_code_invalid', message: 'This merchant offers no discount codes' })),
          },
        }
      : {}),
  };
}
