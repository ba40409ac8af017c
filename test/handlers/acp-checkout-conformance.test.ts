/**
 * What area C's checkout makes of ACP 2026-04-17 request members beyond their shape, over HTTP against
 * the local platform: the official request examples pass; a payment instrument or credential the
 * chosen handler does not take, and the B2B branch of `PaymentData`, are refused before any stock
 * moves; `intent_trace` holds to ACP's `IntentTrace`; free-form `metadata` is refused where storage
 * could not keep it (never a 500); `affiliate_attribution` stays open as ACP asks; line items name a
 * product of the catalog. Every answer is checked against the ACP schema and the OpenAPI document.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acpCall } from '../support/acp-client';
import { expectAcpRefusal, expectAcpSession } from '../support/acp-schemas';
import { TestClock } from '../support/clock';
import { startTestPlatform, type Fixture, type TestPlatform } from '../support/platform';

const EXAMPLES = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/acp/examples.agentic_checkout.2026-04-17.json', import.meta.url)), 'utf8'));
const OK = { handler_id: 'platform_test_card', instrument: { type: 'card', credential: { type: 'spt', token: 'spt_test_ok' } } };

/** An official complete example paying with the local test handler and its succeeding token. */
function locally(example: { payment_data: typeof OK }) {
  const { instrument } = example.payment_data;
  return {
    ...example,
    payment_data: {
      ...example.payment_data,
      handler_id: OK.handler_id,
      instrument: { ...instrument, credential: { ...instrument.credential, token: 'spt_test_ok' } },
    },
  };
}

describe('ACP checkout: request members beyond their shape', () => {
  const clock = new TestClock('2026-07-01T10:00:00.000Z', false);
  let p: TestPlatform;
  let f: Fixture;
  let key: string;
  let mug: string;
  let ebook: string;

  const base = () => `/acp/${f.appId}/checkout_sessions`;
  const post = (path: string, body: unknown) => acpCall(p, 'POST', path, { token: key, body });
  const ok = expectAcpSession;
  const refused = expectAcpRefusal;
  const open = async (productId = ebook) => ok(await post(base(), { line_items: [{ product_id: productId, quantity: 1 }] }), 201).id as string;
  const inventoryOf = async (id: string) => (await p.admin('GET', `/apps/${f.appId}/products`)).body.data.find((x: { id: string }) => x.id === id).inventory;
  const statusOf = async (id: string) => (await acpCall(p, 'GET', `${base()}/${id}`, { token: key })).body.status;

  beforeAll(async () => {
    p = await startTestPlatform({ clock });
    f = await p.fixture();
    key = (await p.admin('POST', `/apps/${f.appId}/acp-keys`, {})).body.data.key;
    mug = (await p.admin('POST', `/apps/${f.appId}/products`, { title: 'Mug', price: 1800, currency: 'usd', inventory: 5 })).body.data.id;
    ebook = (await p.admin('POST', `/apps/${f.appId}/products`, { title: 'E-book', price: 999, currency: 'usd' })).body.data.id;
  });
  afterAll(() => p.stop());

  it('the official request examples pass (with a local product, handler and token)', async () => {
    for (const name of ['create_checkout_session_request', 'create_checkout_session_request_with_first_touch_attribution']) {
      ok(await post(base(), { ...EXAMPLES[name], line_items: [{ id: ebook }] }), 201);
    }
    for (const name of [
      'complete_checkout_session_request',
      'complete_checkout_session_request_with_last_touch_attribution',
      'complete_session_with_authentication_result_request',
    ]) {
      expect(ok(await post(`${base()}/${await open()}/complete`, locally(EXAMPLES[name])), 200).status, name).toBe('completed');
    }
    for (const name of ['cancel_checkout_session_request', 'cancel_checkout_session_request_timing_deferred']) {
      expect(ok(await post(`${base()}/${await open()}/cancel`, EXAMPLES[name]), 200).status, name).toBe('canceled');
    }
  });

  it('an instrument, credential or handler the platform does not take is a 400 before any stock moves', async () => {
    const id = await open(mug);
    const complete = (payment_data: unknown) => post(`${base()}/${id}/complete`, { payment_data });
    refused(await complete({ ...OK, instrument: { ...OK.instrument, type: 'crypto' } }), '$.payment_data.instrument.type');
    refused(
      await complete({ ...OK, instrument: { ...OK.instrument, credential: { type: 'pan', token: '4242424242424242' } } }),
      '$.payment_data.instrument.credential.type',
    );
    refused(await complete({ ...OK, handler_id: 'stripe_spt' }), '$.payment_data.handler_id');
    // A seller-backed saved card is an instrument the test handler does not take.
    refused(await post(`${base()}/${id}/complete`, locally(EXAMPLES.complete_checkout_session_request_seller_backed)), '$.payment_data.instrument.type');
    // The attacker's padded payment_data: an own `__proto__` member is an unknown field, not a 500.
    const raw = `{"payment_data":{"handler_id":"platform_test_card","instrument":{"type":"card","credential":{"type":"spt","token":"spt_test_ok"}},"__proto__":{"x":1}}}`;
    refused(await post(`${base()}/${id}/complete`, raw), '$.payment_data.__proto__');
    expect(await inventoryOf(mug)).toBe(5);
    expect(await statusOf(id)).toBe('ready_for_payment');
    expect(ok(await complete(OK), 200).status).toBe('completed');
    expect(await inventoryOf(mug)).toBe(4);
  });

  it('the B2B branch of PaymentData is unsupported: purchase orders, deferred terms, approvals', async () => {
    const id = await open();
    const complete = (payment_data: unknown) => post(`${base()}/${id}/complete`, { payment_data });
    const po = refused(await complete({ purchase_order_number: 'PO-1' }), '$.payment_data.purchase_order_number', 'unsupported');
    expect(po.message).toMatch(/not supported/);
    refused(await complete({ ...OK, payment_terms: 'net_30' }), '$.payment_data.payment_terms', 'unsupported');
    refused(await complete({ ...OK, approval_required: true }), '$.payment_data.approval_required', 'unsupported');
    refused(await complete({ ...OK, payment_terms: 'weekly' }), '$.payment_data.payment_terms');
    refused(await complete({ ...OK, due_date: '1 July 2026' }), '$.payment_data.due_date');
    refused(await complete({ handler_id: 'platform_test_card' }), '$.payment_data.instrument', 'missing');
    expect(await statusOf(id)).toBe('ready_for_payment');
    expect(ok(await complete({ ...OK, payment_terms: 'immediate', approval_required: false }), 200).status).toBe('completed');
  });

  it('cancel: reason_code is any string (ACP’s enum is extensible) but a string; trace_summary at most 500 characters', async () => {
    const id = await open();
    const cancel = (intent_trace: unknown) => post(`${base()}/${id}/cancel`, { intent_trace });
    refused(await cancel({ reason_code: 42 }), '$.intent_trace.reason_code');
    refused(await cancel({ trace_summary: 'no reason' }), '$.intent_trace.reason_code', 'missing');
    refused(await cancel({ reason_code: 'other', trace_summary: 'x'.repeat(501) }), '$.intent_trace.trace_summary');
    refused(await cancel({ reason_code: 'other', metadata: { nested: { a: 1 } } }), '$.intent_trace.metadata.nested');
    refused(await cancel({ reason_code: 'buyer_cancelled', description: 'Customer decided not to purchase' }), '$.intent_trace.description');
    expect(await statusOf(id)).toBe('ready_for_payment');
    expect(ok(await cancel({ reason_code: 'found_it_cheaper', trace_summary: 'x'.repeat(500) }), 200).status).toBe('canceled');
  });

  it('stored free-form metadata: keys, numbers and nesting storage cannot keep are a 400, never a 500', async () => {
    const create = (metadata: string) => post(base(), `{"line_items":[{"product_id":"${ebook}"}],"metadata":${metadata}}`);
    refused(await create('{"__proto__":{"x":1}}'), '$.metadata.__proto__');
    refused(await create('{"a":{"constructor":{"name":"Set"}}}'), '$.metadata.a.constructor');
    refused(await create('{"big":1e20}'), '$.metadata.big');
    refused(await create('{"tiny":1e-200}'), '$.metadata.tiny');
    refused(await create(`${'{"a":'.repeat(20)}1${'}'.repeat(20)}`), `$.metadata${'.a'.repeat(16)}`);
    const kept = ok(await create('{"campaign":"fall","rate":0.15,"nested":{"ok":[1,true,null]}}'), 201);
    expect(kept.metadata).toEqual({ campaign: 'fall', rate: 0.15, nested: { ok: [1, true, null] } });
  });

  it('affiliate_attribution is open as ACP asks (unknown members ignored), its known members still checked', async () => {
    const attribution = { provider: 'impact.com', publisher_id: 'pub_1' };
    ok(await post(base(), { line_items: [{ product_id: ebook }], affiliate_attribution: { ...attribution, future_field: 1 } }), 201);
    refused(
      await post(base(), { line_items: [{ product_id: ebook }], affiliate_attribution: { provider: 'impact.com' } }),
      '$.affiliate_attribution.token',
      'missing',
    );
    refused(
      await post(base(), { line_items: [{ product_id: ebook }], affiliate_attribution: { ...attribution, touchpoint: 'middle' } }),
      '$.affiliate_attribution.touchpoint',
    );
  });

  it('a line item names a catalog product by product_id, id or item.id; suggested_price is not in ACP 2026-04-17', async () => {
    refused(await post(base(), { line_items: [{ id: 'item_123' }] }), '$.line_items[0].id', 'invalid_item_id');
    refused(await post(base(), { line_items: [{ item: { id: 'item_123' } }] }), '$.line_items[0].item.id', 'invalid_item_id');
    refused(await post(base(), { line_items: [{ item: { name: 'Mug' } }] }), '$.line_items[0].item.id', 'missing');
    refused(await post(base(), { line_items: [{ quantity: 1 }] }), '$.line_items[0].product_id', 'missing');
    refused(await post(base(), { line_items: [{ product_id: ebook, quantity: 10_001 }] }), '$.line_items[0].quantity');
    refused(await post(base(), { line_items: [{ product_id: ebook, suggested_price: 100 }] }), '$.line_items[0].suggested_price');
    refused(await post(base(), { line_items: [{ product_id: ebook }], constructor: 'x' }), '$.constructor');
  });
});
