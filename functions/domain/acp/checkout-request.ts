/**
 * The request bodies of area C's checkout routes, checked against ACP 2026-04-17, whose request
 * objects are closed (`additionalProperties: false`): a field the protocol does not define for the
 * operation is a 400 naming it, never silently dropped. What each known field does here:
 * - acted on: `line_items` (and the 2025-09-29 `items`), `currency`, `buyer`, `payment_data`,
 *   `selected_fulfillment_options` (checked: only the digital option exists, auto-selected);
 * - kept and shown on the session: `fulfillment_details`, `locale`, `timezone`, `metadata`,
 *   `discounts.codes` / `coupons` (every code answered as rejected: this platform has no discount codes),
 *   `order_notes` (kept with the order);
 * - accepted as hints with no effect (ACP lets a merchant ignore them): `capabilities`,
 *   `fulfillment_groups`, `affiliate_attribution`, `quote_id`, `authentication_result`, `risk_signals`,
 *   `marketing_consents`, `intent_trace`. Each is still checked for its JSON type.
 * See docs/adr/0017.
 */
import { invalid } from './checkout';

export type CheckoutOperation = 'create' | 'update' | 'complete' | 'cancel';

type FieldType = 'object' | 'array' | 'string';

/** The fields of each operation's ACP request and their JSON types (a line item list is checked by parseLineItems). */
const FIELDS: Record<CheckoutOperation, Record<string, FieldType | 'checked'>> = {
  create: {
    line_items: 'checked', items: 'checked', currency: 'checked', buyer: 'checked', capabilities: 'object', fulfillment_details: 'checked',
    fulfillment_groups: 'array', affiliate_attribution: 'object', discounts: 'checked', coupons: 'checked', locale: 'checked', timezone: 'checked',
    quote_id: 'string', metadata: 'checked', order_notes: 'checked',
  },
  update: {
    line_items: 'checked', items: 'checked', buyer: 'checked', fulfillment_details: 'checked', fulfillment_groups: 'array',
    selected_fulfillment_options: 'checked', discounts: 'checked', coupons: 'checked', order_notes: 'checked',
  },
  complete: {
    payment_data: 'checked', buyer: 'checked', authentication_result: 'object', affiliate_attribution: 'object', risk_signals: 'object',
    marketing_consents: 'array', order_notes: 'checked',
  },
  cancel: { intent_trace: 'object' },
};

export const MAX_ORDER_NOTES = 5000;
const MAX_METADATA_JSON = 4096;
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

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function typeOk(value: unknown, type: FieldType): boolean {
  return type === 'object' ? isRecord(value) : type === 'array' ? Array.isArray(value) : typeof value === 'string';
}

function str(value: unknown, at: string, max: number): string {
  if (typeof value !== 'string' || value.length > max) throw invalid('invalid', `${at.slice(2)} must be a string of at most ${max} characters`, at);
  return value;
}

const ADDRESS_REQUIRED = ['name', 'line_one', 'city', 'state', 'country', 'postal_code'] as const;
const ADDRESS_FIELDS = new Set([...ADDRESS_REQUIRED, 'line_two', 'company']);

/** ACP `FulfillmentDetails {name, phone_number, email, address}` (closed, address with its required fields). */
function fulfillmentDetailsOf(value: unknown): Record<string, unknown> {
  const at = '$.fulfillment_details';
  if (!isRecord(value)) throw invalid('invalid', 'fulfillment_details must be an object { name, phone_number, email, address }', at);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'name' || k === 'phone_number') out[k] = str(v, `${at}.${k}`, 256);
    else if (k === 'email') {
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(str(v, `${at}.email`, 320))) throw invalid('invalid', 'fulfillment_details.email must be an email address', `${at}.email`);
      out.email = v;
    } else if (k === 'address') {
      if (!isRecord(v)) throw invalid('invalid', 'fulfillment_details.address must be an object', `${at}.address`);
      const address: Record<string, string> = {};
      for (const [ak, av] of Object.entries(v)) {
        if (!ADDRESS_FIELDS.has(ak)) throw invalid('invalid', `Unknown field: fulfillment_details.address.${ak.slice(0, 64)}`, `${at}.address.${ak.slice(0, 64)}`);
        address[ak] = str(av, `${at}.address.${ak}`, 256);
      }
      for (const required of ADDRESS_REQUIRED) if (address[required] === undefined) throw invalid('missing', `fulfillment_details.address.${required} is required`, `${at}.address.${required}`);
      if (!/^[A-Za-z]{2}$/.test(address.country!)) throw invalid('invalid', 'fulfillment_details.address.country must be an ISO 3166-1 alpha-2 code', `${at}.address.country`);
      out.address = address;
    } else throw invalid('invalid', `Unknown field: fulfillment_details.${k.slice(0, 64)}`, `${at}.${k.slice(0, 64)}`);
  }
  return out;
}

function codesOf(body: Record<string, unknown>): string[] | undefined {
  const codes: string[] = [];
  if (body.discounts !== undefined) {
    if (!isRecord(body.discounts) || Object.keys(body.discounts).some((k) => k !== 'codes')) throw invalid('invalid', 'discounts must be { codes: [string] }', '$.discounts');
    const list = body.discounts.codes ?? [];
    if (!Array.isArray(list)) throw invalid('invalid', 'discounts.codes must be an array of strings', '$.discounts.codes');
    list.forEach((c, i) => codes.push(str(c, `$.discounts.codes[${i}]`, 64)));
  }
  if (body.coupons !== undefined) {
    if (!Array.isArray(body.coupons)) throw invalid('invalid', 'coupons must be an array of strings', '$.coupons');
    body.coupons.forEach((c, i) => codes.push(str(c, `$.coupons[${i}]`, 64)));
  }
  if (body.discounts === undefined && body.coupons === undefined) return undefined;
  if (codes.length > MAX_CODES) throw invalid('invalid', `At most ${MAX_CODES} discount codes`, '$.discounts.codes');
  return [...new Set(codes)];
}

/**
 * Checks a request body's fields for the operation and returns what the session keeps of it (only the
 * fields present: absent ones leave the session's as they are).
 */
export function checkRequestFields(body: Record<string, unknown>, op: CheckoutOperation, lineIds: readonly string[] = []): CheckoutDetails {
  const allowed = FIELDS[op];
  for (const [name, value] of Object.entries(body)) {
    const type = allowed[name];
    if (type === undefined) throw invalid('invalid', `Unknown field for this operation: ${name.slice(0, 64)}`, `$.${name.slice(0, 64)}`);
    if (type !== 'checked' && !typeOk(value, type)) throw invalid('invalid', `${name} must be ${type === 'array' ? 'an array' : `a ${type}`}`, `$.${name}`);
  }
  const details: { -readonly [K in keyof CheckoutDetails]: CheckoutDetails[K] } = {};
  if (body.fulfillment_details !== undefined) details.fulfillmentDetails = fulfillmentDetailsOf(body.fulfillment_details);
  if (body.locale !== undefined) {
    details.locale = str(body.locale, '$.locale', 35);
    if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(details.locale)) throw invalid('invalid', 'locale must be a BCP 47 language tag such as en-US', '$.locale');
  }
  if (body.timezone !== undefined) details.timezone = str(body.timezone, '$.timezone', 64);
  if (body.metadata !== undefined) {
    if (!isRecord(body.metadata) || JSON.stringify(body.metadata).length > MAX_METADATA_JSON) throw invalid('invalid', `metadata must be an object of at most ${MAX_METADATA_JSON} bytes of JSON`, '$.metadata');
    details.metadata = body.metadata;
  }
  const codes = codesOf(body);
  if (codes) details.discountCodes = codes;
  if (body.order_notes !== undefined) details.orderNotes = str(body.order_notes, '$.order_notes', MAX_ORDER_NOTES);
  if (body.selected_fulfillment_options !== undefined) {
    const at = '$.selected_fulfillment_options';
    if (!Array.isArray(body.selected_fulfillment_options)) throw invalid('invalid', 'selected_fulfillment_options must be an array of { type, option_id, item_ids }', at);
    body.selected_fulfillment_options.forEach((o, i) => {
      if (!isRecord(o) || o.type !== 'digital' || o.option_id !== 'digital' || !Array.isArray(o.item_ids) || Object.keys(o).some((k) => !['type', 'option_id', 'item_ids'].includes(k))) {
        throw invalid('invalid', 'The only fulfillment option is { type: "digital", option_id: "digital", item_ids }', `${at}[${i}]`);
      }
      o.item_ids.forEach((id, j) => {
        if (typeof id !== 'string' || !lineIds.includes(id)) throw invalid('invalid', `Unknown line item id: ${String(id).slice(0, 64)}`, `${at}[${i}].item_ids[${j}]`);
      });
    });
  }
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
