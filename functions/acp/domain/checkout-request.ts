/**
 * The request bodies of area C's checkout routes, checked against ACP 2026-04-17, whose request
 * objects are closed (`additionalProperties: false`): a field the protocol does not define for the
 * operation, at any depth, is a 400 naming it, never silently dropped. What each known field does here:
 * - acted on: `line_items` (and the 2025-09-29 `items`), `currency`, `buyer` (its email), `payment_data`,
 *   `selected_fulfillment_options` (checked: only the digital option exists, auto-selected);
 * - kept and shown on the session: `fulfillment_details`, `locale`, `timezone`, `metadata`,
 *   `discounts.codes` / `coupons` (every code answered as rejected: this platform has no discount codes),
 *   `order_notes` (kept with the order);
 * - accepted as hints with no effect, never stored (ACP lets a merchant ignore them): the rest of
 *   `buyer`, `capabilities`, `fulfillment_groups`, `affiliate_attribution`, `quote_id`,
 *   `authentication_result`, `risk_signals`, `marketing_consents`, `intent_trace`. Each is still
 *   checked against its ACP object (request-objects.ts).
 * See docs/adr/0017.
 */
import {
  AFFILIATE_ATTRIBUTION,
  AUTHENTICATION_RESULT,
  BUYER,
  CAPABILITIES,
  FULFILLMENT_DETAILS,
  FULFILLMENT_GROUP,
  INTENT_TRACE,
  MARKETING_CONSENT,
  RISK_SIGNALS,
} from './request-objects';
import { arrayOf, invalid, isRecord, label, memberPath, object, own, pick, storableJson, string, type Check } from './request-shape';

export type CheckoutOperation = 'create' | 'update' | 'complete' | 'cancel';

/** `checked`: by checkRequestFields below, or by the use case that acts on it (line items, currency, payment_data). */
type FieldRule = Check | 'checked';

/** `buyer: null` clears the session's buyer. */
const buyer: Check = (v, at) => {
  if (v !== null) BUYER(v, at);
};

/** The fields of each operation's ACP request. */
const FIELDS: Record<CheckoutOperation, Readonly<Record<string, FieldRule>>> = {
  create: {
    line_items: 'checked',
    items: 'checked',
    currency: 'checked',
    buyer,
    capabilities: CAPABILITIES,
    fulfillment_details: 'checked',
    fulfillment_groups: arrayOf(FULFILLMENT_GROUP),
    affiliate_attribution: AFFILIATE_ATTRIBUTION,
    discounts: 'checked',
    coupons: 'checked',
    locale: 'checked',
    timezone: 'checked',
    quote_id: string(),
    metadata: 'checked',
    order_notes: 'checked',
  },
  update: {
    line_items: 'checked',
    items: 'checked',
    buyer,
    fulfillment_details: 'checked',
    fulfillment_groups: arrayOf(FULFILLMENT_GROUP),
    selected_fulfillment_options: 'checked',
    discounts: 'checked',
    coupons: 'checked',
    order_notes: 'checked',
  },
  complete: {
    payment_data: 'checked',
    buyer,
    authentication_result: AUTHENTICATION_RESULT,
    affiliate_attribution: AFFILIATE_ATTRIBUTION,
    risk_signals: RISK_SIGNALS,
    marketing_consents: arrayOf(MARKETING_CONSENT),
    order_notes: 'checked',
  },
  cancel: { intent_trace: INTENT_TRACE },
};

export const MAX_ORDER_NOTES = 5000;
const MAX_METADATA_JSON = 4096;
/** Well inside DynamoDB's 32 levels of an item, the session's own nesting included. */
const MAX_METADATA_DEPTH = 16;
const MAX_CODES = 20;

/** What a session keeps of a request beyond its lines and buyer, shown back on the session. */
export interface CheckoutDetails {
  readonly fulfillmentDetails?: Record<string, unknown>;
  readonly locale?: string;
  readonly timezone?: string;
  readonly metadata?: Record<string, unknown>;
  readonly discountCodes?: readonly string[];
  readonly orderNotes?: string;
}

function str(value: unknown, at: string, max: number): string {
  string({ max })(value, at);
  return value as string;
}

/** ACP `FulfillmentDetails`, kept as a fresh object of its checked members. */
function fulfillmentDetailsOf(value: unknown): Record<string, unknown> {
  FULFILLMENT_DETAILS(value, '$.fulfillment_details');
  const details = value as Record<string, unknown>;
  const address = own(details, 'address') as Record<string, unknown> | undefined;
  return {
    ...pick(details, ['name', 'phone_number', 'email']),
    ...(address ? { address: pick(address, ['name', 'line_one', 'line_two', 'city', 'state', 'country', 'postal_code', 'company']) } : {}),
  };
}

const CODE = string({ max: 64 });
const DISCOUNTS = object({ codes: arrayOf(CODE) });

function codesOf(body: Record<string, unknown>): string[] | undefined {
  const discounts = own(body, 'discounts');
  const coupons = own(body, 'coupons');
  if (discounts === undefined && coupons === undefined) return undefined;
  const codes: string[] = [];
  if (discounts !== undefined) {
    DISCOUNTS(discounts, '$.discounts');
    codes.push(...((own(discounts as Record<string, unknown>, 'codes') ?? []) as string[]));
  }
  if (coupons !== undefined) {
    arrayOf(CODE)(coupons, '$.coupons');
    codes.push(...(coupons as string[]));
  }
  if (codes.length > MAX_CODES) throw invalid('invalid', `At most ${MAX_CODES} discount codes`, '$.discounts.codes');
  return [...new Set(codes)];
}

const SELECTED_OPTION = object({ type: string(), option_id: string(), item_ids: arrayOf(string()) }, { required: ['type', 'option_id', 'item_ids'] });

function checkSelectedOptions(value: unknown, lineIds: readonly string[]): void {
  const at = '$.selected_fulfillment_options';
  arrayOf(SELECTED_OPTION)(value, at);
  (value as Record<string, unknown>[]).forEach((o, i) => {
    if (o.type !== 'digital' || o.option_id !== 'digital')
      throw invalid('invalid', 'The only fulfillment option is { type: "digital", option_id: "digital", item_ids }', `${at}[${i}]`);
    (o.item_ids as string[]).forEach((id, j) => {
      if (!lineIds.includes(id)) throw invalid('invalid', `Unknown line item id: ${id.slice(0, 64)}`, `${at}[${i}].item_ids[${j}]`);
    });
  });
}

/**
 * Checks a request body's fields for the operation and returns what the session keeps of it (only the
 * fields present: absent ones leave the session's as they are).
 */
export function checkRequestFields(body: Record<string, unknown>, op: CheckoutOperation, lineIds: readonly string[] = []): CheckoutDetails {
  const allowed = FIELDS[op];
  for (const [name, value] of Object.entries(body)) {
    const at = memberPath('$', name);
    const rule = Object.hasOwn(allowed, name) ? allowed[name] : undefined;
    if (rule === undefined) throw invalid('invalid', `Unknown field for this operation: ${label(at)}`, at);
    if (rule !== 'checked') rule(value, at);
  }
  const field = (name: string) => own(body, name);
  const details: { -readonly [K in keyof CheckoutDetails]: CheckoutDetails[K] } = {};
  if (field('fulfillment_details') !== undefined) details.fulfillmentDetails = fulfillmentDetailsOf(field('fulfillment_details'));
  if (field('locale') !== undefined) {
    details.locale = str(field('locale'), '$.locale', 35);
    if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(details.locale)) throw invalid('invalid', 'locale must be a BCP 47 language tag such as en-US', '$.locale');
  }
  if (field('timezone') !== undefined) details.timezone = str(field('timezone'), '$.timezone', 64);
  const metadata = field('metadata');
  if (metadata !== undefined) {
    if (!isRecord(metadata) || JSON.stringify(metadata).length > MAX_METADATA_JSON)
      throw invalid('invalid', `metadata must be an object of at most ${MAX_METADATA_JSON} bytes of JSON`, '$.metadata');
    storableJson(MAX_METADATA_DEPTH)(metadata, '$.metadata');
    details.metadata = metadata;
  }
  const codes = codesOf(body);
  if (codes) details.discountCodes = codes;
  if (field('order_notes') !== undefined) details.orderNotes = str(field('order_notes'), '$.order_notes', MAX_ORDER_NOTES);
  if (field('selected_fulfillment_options') !== undefined) checkSelectedOptions(field('selected_fulfillment_options'), lineIds);
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
