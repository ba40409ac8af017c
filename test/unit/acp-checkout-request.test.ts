/**
 * The checks of area C's checkout request bodies, as properties over generated keys: every closed
 * object refuses every key it does not define (any string: prototype member names, the empty string,
 * lone surrogates), naming it by its JSONPath; what a complete keeps of `payment_data` is a fresh plain
 * object of the checked members.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLineItems } from '../../functions/acp/domain/checkout';
import { checkRequestFields, type CheckoutOperation } from '../../functions/acp/domain/checkout-request';
import { checkPaymentData, type PaymentHandler } from '../../functions/acp/domain/payment-data';
import { memberPath } from '../../functions/acp/domain/request-shape';
import { rejection } from '../support/domain-error';

const PRODUCT = '0b6f2a64-3c1e-4d8a-9f57-2e1c5b7a9d10';
const HANDLER: PaymentHandler = {
  id: 'h_card',
  name: 'dev.acp.tokenized.card',
  display_name: 'Card',
  version: '2026-04-17',
  spec: 'https://example.com',
  requires_delegate_payment: false,
  requires_pci_compliance: false,
  psp: 'test',
  config_schema: 'https://example.com',
  instrument_schemas: ['https://example.com'],
  config: {},
  instrumentTypes: ['card'],
  credentialTypes: ['spt'],
};
const ADDRESS = { name: 'Ada', line_one: '1 Main St', city: 'Springfield', state: 'IL', country: 'US', postal_code: '62701' };
const paymentData = () => ({
  handler_id: 'h_card',
  instrument: { type: 'card', credential: { type: 'spt', token: 'spt_1' } },
  billing_address: { ...ADDRESS },
});

/** Any key, weighted towards the ones that have broken lookups before. */
const anyKey = fc.oneof(fc.string({ unit: 'binary', maxLength: 80 }), fc.constantFrom(...Object.getOwnPropertyNames(Object.prototype), '', 'evil'));

/** A copy of `body` whose object at `path` has the own member `key`. */
function withKey(body: Record<string, unknown>, path: readonly (string | number)[], key: string): Record<string, unknown> {
  const copy = structuredClone(body);
  const target = path.reduce((o: any, s) => o[s], copy);
  Object.defineProperty(target, key, { value: 1, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** [what, known member names of the object, a valid body, path of the object, the check]. */
const CLOSED: [string, string[], Record<string, unknown>, (string | number)[], (body: Record<string, unknown>) => unknown][] = [
  ...(['create', 'update', 'complete', 'cancel'] as CheckoutOperation[]).map(
    (op): [string, string[], Record<string, unknown>, (string | number)[], (body: Record<string, unknown>) => unknown] => [
      `the ${op} body`,
      [
        'line_items',
        'items',
        'currency',
        'buyer',
        'capabilities',
        'fulfillment_details',
        'fulfillment_groups',
        'affiliate_attribution',
        'discounts',
        'coupons',
        'locale',
        'timezone',
        'quote_id',
        'metadata',
        'order_notes',
        'selected_fulfillment_options',
        'payment_data',
        'authentication_result',
        'risk_signals',
        'marketing_consents',
        'intent_trace',
      ],
      {},
      [],
      (body) => checkRequestFields(body, op),
    ],
  ),
  [
    'a line item',
    ['product_id', 'id', 'item', 'quantity', 'name', 'unit_amount'],
    { line_items: [{ product_id: PRODUCT }] },
    ['line_items', 0],
    (body) => parseLineItems(body, true),
  ],
  [
    'a line item’s item',
    ['id', 'name', 'unit_amount'],
    { line_items: [{ item: { id: PRODUCT } }] },
    ['line_items', 0, 'item'],
    (body) => parseLineItems(body, true),
  ],
  ['payment_data', Object.keys(paymentData()), { payment_data: paymentData() }, ['payment_data'], (body) => checkPaymentData(body.payment_data, [HANDLER])],
  [
    'payment_data.instrument',
    ['type', 'credential'],
    { payment_data: paymentData() },
    ['payment_data', 'instrument'],
    (body) => checkPaymentData(body.payment_data, [HANDLER]),
  ],
  [
    'payment_data.instrument.credential',
    ['type', 'token'],
    { payment_data: paymentData() },
    ['payment_data', 'instrument', 'credential'],
    (body) => checkPaymentData(body.payment_data, [HANDLER]),
  ],
  [
    'payment_data.billing_address',
    Object.keys(ADDRESS),
    { payment_data: paymentData() },
    ['payment_data', 'billing_address'],
    (body) => checkPaymentData(body.payment_data, [HANDLER]),
  ],
  [
    'intent_trace',
    ['reason_code', 'trace_summary', 'metadata'],
    { intent_trace: { reason_code: 'other' } },
    ['intent_trace'],
    (body) => checkRequestFields(body, 'cancel'),
  ],
];

describe('closed request objects', () => {
  it.each(CLOSED)('%s refuses every key it does not define, naming it', (_what, known, body, path, check) => {
    expect(() => check(body)).not.toThrow();
    fc.assert(
      fc.property(
        anyKey.filter((k) => !known.includes(k)),
        (key) => {
          const error = rejection(() => check(withKey(body, path, key)));
          expect({ code: error.detail, param: error.param }).toEqual({
            code: 'invalid',
            param: memberPath(`$${path.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('')}`, key),
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('names a key by RFC 9535 JSONPath, echoing at most 64 characters of it', () => {
    expect(memberPath('$.a', 'evil')).toBe('$.a.evil');
    expect(memberPath('$.a', '__proto__')).toBe('$.a.__proto__');
    expect(memberPath('$.a', '')).toBe("$.a['']");
    expect(memberPath('$.a', "it's\\\n")).toBe("$.a['it\\'s\\\\\\u000a']");
    expect(memberPath('$.a', 'k'.repeat(200))).toBe(`$.a.${'k'.repeat(64)}`);
    expect(memberPath('$.a', '🔑'.repeat(100))).toBe(`$.a['${'🔑'.repeat(64)}']`);
  });
});

describe('payment_data', () => {
  it('what is kept is a fresh plain object of the checked members: the request’s own object is never stored', () => {
    const sent = { ...paymentData(), payment_terms: 'immediate', due_date: '2026-07-01T10:00:00Z', approval_required: false };
    const kept = checkPaymentData(sent, [HANDLER]);
    expect(kept).toStrictEqual(paymentData());
    sent.instrument.credential.token = 'changed';
    sent.billing_address.city = 'changed';
    expect(kept).toStrictEqual(paymentData());
    expect(checkPaymentData({ token: 'spt_1', provider: 'stripe' }, [HANDLER])).toStrictEqual({ token: 'spt_1', provider: 'stripe' });
  });

  it('takes only the instrument and credential types of the chosen handler', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 64 }), fc.string({ minLength: 1, maxLength: 64 }), (type, credential) => {
        const data = { handler_id: 'h_card', instrument: { type, credential: { type: credential, token: 'spt_1' } } };
        if (type === 'card' && credential === 'spt') return;
        const error = rejection(() => checkPaymentData(data, [HANDLER]));
        expect(error.param).toBe(type === 'card' ? '$.payment_data.instrument.credential.type' : '$.payment_data.instrument.type');
      }),
    );
  });
});
