/**
 * Area C's checkout over HTTP against the local platform: the spec's auth table (401 unauthorized /
 * expired, 403 forbidden, 429 { error } with Retry-After at 60 a minute per key), the session life cycle
 * with server-computed totals, inventory that is never oversold under concurrent completes, the test
 * payment handler, and the headers ACP requires (API-Version on every request, Idempotency-Key on every
 * POST, with the RFC's exact errors). Every checkout body is validated against the official ACP JSON
 * Schema (CheckoutSession, CheckoutSessionWithOrder, Error).
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../functions/acp/http/acp-checkout';
import { acpCall } from '../support/acp-client';
import { expectAcp } from '../support/acp-schemas';
import { createChatKey } from '../support/chat';
import { TestClock } from '../support/clock';
import { startTestPlatform, type Fixture, type TestPlatform, type TestResponse } from '../support/platform';

const OK = { handler_id: 'platform_test_card', instrument: { type: 'card', credential: { type: 'spt', token: 'spt_test_ok' } } };
const DECLINED = { handler_id: 'platform_test_card', instrument: { type: 'card', credential: { type: 'spt', token: 'spt_test_declined' } } };

describe('ACP checkout sessions', () => {
  const clock = new TestClock('2026-07-01T10:00:00.000Z', false);
  let p: TestPlatform;
  let f: Fixture;
  let key: { key: string; id: string };
  let mug: { id: string };
  let ebook: { id: string };

  const acpKey = async (appId: string, body: Record<string, unknown> = {}) => {
    const res = await p.admin('POST', `/apps/${appId}/acp-keys`, body);
    expect(res.status, res.text).toBe(201);
    return { key: res.body.data.key as string, id: res.body.data.id as string };
  };
  const product = async (appId: string, body: Record<string, unknown>) => {
    const res = await p.admin('POST', `/apps/${appId}/products`, body);
    expect(res.status, res.text).toBe(201);
    return res.body.data as { id: string };
  };
  const base = (appId = f.appId) => `/acp/${appId}/checkout_sessions`;
  const post = (path: string, body: unknown, token = key.key, headers: Record<string, string> = {}) => acpCall(p, 'POST', path, { token, body, headers });
  const session = (res: TestResponse, status: number, definition: 'CheckoutSession' | 'CheckoutSessionWithOrder' = 'CheckoutSession') => {
    expect(res.status, res.text).toBe(status);
    expectAcp(definition, res.body);
    return res.body;
  };
  const acpError = (res: TestResponse, status: number, code: string) => {
    expect(res.status, res.text).toBe(status);
    expectAcp('Error', res.body);
    expect(res.body.code).toBe(code);
    return res.body;
  };

  beforeAll(async () => {
    p = await startTestPlatform({ clock });
    f = await p.fixture();
    key = await acpKey(f.appId);
    mug = await product(f.appId, { title: 'Mug', price: 1800, currency: 'usd', inventory: 50 });
    ebook = await product(f.appId, { title: 'E-book', price: 999, currency: 'usd' });
  });
  afterAll(() => p.stop());

  describe('keys', () => {
    it('prints acp_ + 32 characters once and stores only its hash', async () => {
      const k = await acpKey(f.appId, { name: 'agent' });
      expect(k.key).toMatch(/^acp_[A-Za-z0-9]{32}$/);
      const shown = await p.admin('GET', `/apps/${f.appId}`);
      expect(shown.text).not.toContain(k.key);
    });
  });

  describe('authentication and limits (the spec’s area C table)', () => {
    const unauthorized = (res: TestResponse, code = 'unauthorized') => {
      expect(res.status, res.text).toBe(401);
      expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
    };

    it('401 unauthorized: missing header, no acp_ prefix, unknown key, revoked key, another class of key', async () => {
      const body = { line_items: [{ product_id: mug.id, quantity: 1 }] };
      unauthorized(await acpCall(p, 'POST', base(), { body }));
      unauthorized(await post(base(), body, `svc_chat_${'x'.repeat(40)}`));
      unauthorized(await post(base(), body, 'x'.repeat(36)));
      unauthorized(await post(base(), body, `acp_${'Z'.repeat(32)}`));
      const chat = await createChatKey(p, f.appId);
      unauthorized(await post(base(), body, chat.key));
      const revoked = await acpKey(f.appId);
      expect((await post(base(), body, revoked.key)).status).toBe(201);
      expect((await p.admin('DELETE', `/keys/${revoked.id}`)).status).toBe(200);
      unauthorized(await post(base(), body, revoked.key));
      unauthorized(await acpCall(p, 'GET', `${base()}/${randomUUID()}`, {}));
    });

    it('401 expired for an expired key', async () => {
      const soon = await acpKey(f.appId, { expiresAt: new Date(Date.parse('2026-07-01T10:00:00.000Z') + 60_000).toISOString() });
      clock.advance(120_000);
      unauthorized(await post(base(), { line_items: [{ product_id: mug.id }] }, soon.key), 'expired');
    });

    it('403 forbidden when the key belongs to another app than {appId}', async () => {
      const other = await p.fixture();
      const res = await post(base(other.appId), { line_items: [{ product_id: mug.id }] });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: { code: 'forbidden', message: expect.any(String) } });
    });

    it('60 requests a minute per key; the 61st is 429 { error: string } with Retry-After', async () => {
      clock.advance(60_000);
      const k = await acpKey(f.appId);
      for (let i = 0; i < 60; i++) expect((await acpCall(p, 'GET', `${base()}/${randomUUID()}`, { token: k.key })).status).toBe(404);
      const over = await post(base(), { line_items: [{ product_id: mug.id }] }, k.key);
      expect(over.status).toBe(429);
      expect(Object.keys(over.body)).toEqual(['error']);
      expect(typeof over.body.error).toBe('string');
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      clock.advance(60_000);
    });
  });

  describe('the session', () => {
    it('creates a ready session from the spec’s line_items with server-computed totals in minor units', async () => {
      const body = session(
        await post(base(), {
          line_items: [
            { product_id: mug.id, quantity: 2 },
            { product_id: ebook.id, quantity: 1 },
          ],
        }),
        201,
      );
      expect(body.status).toBe('ready_for_payment');
      expect(body.currency).toBe('usd');
      expect(body.line_items.map((l: { product_id: string; quantity: number; unit_amount: number }) => [l.product_id, l.quantity, l.unit_amount])).toEqual([
        [mug.id, 2, 1800],
        [ebook.id, 1, 999],
      ]);
      expect(body.totals.find((t: { type: string }) => t.type === 'total').amount).toBe(2 * 1800 + 999);
      expect(body.capabilities.payment.handlers[0].id).toBe('platform_test_card');
      const read = session(await acpCall(p, 'GET', `${base()}/${body.id}`, { token: key.key }), 200);
      expect(read).toEqual(body);
    });

    it('accepts the ACP variants of a line item ({id}, {item: {id}}, items) and merges duplicates', async () => {
      const a = session(await post(base(), { line_items: [{ id: mug.id }, { item: { id: mug.id }, quantity: 2 }] }), 201);
      expect(a.line_items).toHaveLength(1);
      expect(a.line_items[0].quantity).toBe(3);
      const b = session(await post(base(), { items: [{ id: ebook.id, quantity: 1 }] }), 201);
      expect(b.line_items[0].product_id).toBe(ebook.id);
    });

    it('answers ACP Errors for bad line items: unknown or foreign product, bad quantity, none at all', async () => {
      const other = await p.fixture();
      const theirs = await product(other.appId, { title: 'Lamp', price: 4000, currency: 'usd' });
      acpError(await post(base(), { line_items: [{ product_id: randomUUID(), quantity: 1 }] }), 400, 'invalid_item_id');
      acpError(await post(base(), { line_items: [{ product_id: theirs.id, quantity: 1 }] }), 400, 'invalid_item_id');
      acpError(await post(base(), { line_items: [{ product_id: mug.id, quantity: 0 }] }), 400, 'invalid');
      acpError(await post(base(), { line_items: [{ product_id: mug.id, quantity: 1.5 }] }), 400, 'invalid');
      acpError(await post(base(), { line_items: [] }), 400, 'invalid');
      acpError(await post(base(), {}), 400, 'missing');
      acpError(await post(base(), { line_items: [{ product_id: 'not-a-uuid' }] }), 400, 'invalid_item_id');
    });

    it('is not ready when stock is short, and says why', async () => {
      const rare = await product(f.appId, { title: 'Rare print', price: 5000, currency: 'usd', inventory: 1 });
      const body = session(await post(base(), { line_items: [{ product_id: rare.id, quantity: 2 }] }), 201);
      expect(body.status).toBe('not_ready_for_payment');
      expect(body.messages).toEqual([expect.objectContaining({ type: 'error', code: 'out_of_stock', param: '$.line_items[0].quantity' })]);
      acpError(await post(`${base()}/${body.id}/complete`, { payment_data: OK }), 400, 'not_ready_for_payment');
      // Fewer fixes it.
      const fixed = session(await post(`${base()}/${body.id}`, { line_items: [{ product_id: rare.id, quantity: 1 }] }), 200);
      expect(fixed.status).toBe('ready_for_payment');
    });

    it('updates quantities and the buyer, recomputing totals', async () => {
      const created = session(await post(base(), { line_items: [{ product_id: mug.id, quantity: 1 }] }), 201);
      const updated = session(
        await post(`${base()}/${created.id}`, { line_items: [{ product_id: mug.id, quantity: 3 }], buyer: { email: 'ana@example.com' } }),
        200,
      );
      expect(updated.totals.find((t: { type: string }) => t.type === 'total').amount).toBe(5400);
      expect(updated.buyer).toEqual({ email: 'ana@example.com' });
      expect(updated.line_items[0].id).toBe(created.line_items[0].id);
    });

    it('completes with the test handler: the order, and the stock taken', async () => {
      const stocked = await product(f.appId, { title: 'Poster', price: 2500, currency: 'usd', inventory: 5 });
      const created = session(await post(base(), { line_items: [{ product_id: stocked.id, quantity: 2 }] }), 201);
      const done = session(await post(`${base()}/${created.id}/complete`, { payment_data: OK }), 200, 'CheckoutSessionWithOrder');
      expect(done.status).toBe('completed');
      expect(done.order).toMatchObject({ id: expect.any(String), checkout_session_id: created.id });
      const listed = await p.admin('GET', `/apps/${f.appId}/products`);
      expect(listed.body.data.find((x: { id: string }) => x.id === stocked.id).inventory).toBe(3);
      // Terminal: update and cancel are 405; a second complete too.
      acpError(await post(`${base()}/${created.id}/cancel`, {}), 405, 'invalid_state');
      acpError(await post(`${base()}/${created.id}`, { line_items: [{ product_id: stocked.id, quantity: 1 }] }), 405, 'invalid_state');
      acpError(await post(`${base()}/${created.id}/complete`, { payment_data: OK }), 405, 'invalid_state');
      // The order is listed in the admin API, newest first.
      const orders = await p.admin('GET', `/apps/${f.appId}/orders`);
      expect(orders.status, orders.text).toBe(200);
      expect(orders.body.data[0]).toMatchObject({
        id: done.order.id,
        checkoutSessionId: created.id,
        currency: 'usd',
        total: 5000,
        lines: [{ productId: stocked.id, title: 'Poster', quantity: 2, unitAmount: 2500 }],
      });
      expect((await p.admin('GET', `/apps/${f.appId}/orders?limit=0`)).status).toBe(400);
    });

    it('a declined payment leaves the session ready with a payment_declined message, and the stock untouched', async () => {
      const stocked = await product(f.appId, { title: 'Print', price: 700, currency: 'usd', inventory: 2 });
      const created = session(await post(base(), { line_items: [{ product_id: stocked.id, quantity: 2 }] }), 201);
      const declined = session(await post(`${base()}/${created.id}/complete`, { payment_data: DECLINED }), 200);
      expect(declined.status).toBe('ready_for_payment');
      expect(declined.messages).toEqual([expect.objectContaining({ type: 'error', code: 'payment_declined' })]);
      const listed = await p.admin('GET', `/apps/${f.appId}/products`);
      expect(listed.body.data.find((x: { id: string }) => x.id === stocked.id).inventory).toBe(2);
      session(await post(`${base()}/${created.id}/complete`, { payment_data: OK }), 200, 'CheckoutSessionWithOrder');
    });

    it('cancels once; a canceled session cannot be completed or canceled again (405)', async () => {
      const created = session(await post(base(), { line_items: [{ product_id: ebook.id }] }), 201);
      expect(session(await post(`${base()}/${created.id}/cancel`, { intent_trace: { reason_code: 'price_sensitivity' } }), 200).status).toBe('canceled');
      acpError(await post(`${base()}/${created.id}/cancel`, {}), 405, 'invalid_state');
      acpError(await post(`${base()}/${created.id}/complete`, { payment_data: OK }), 405, 'invalid_state');
    });

    it('404 for an unknown session and for another app’s session, in the ACP Error shape', async () => {
      acpError(await acpCall(p, 'GET', `${base()}/${randomUUID()}`, { token: key.key }), 404, 'not_found');
      const other = await p.fixture();
      const otherKey = await acpKey(other.appId);
      const mine = session(await post(base(), { line_items: [{ product_id: ebook.id }] }), 201);
      acpError(await acpCall(p, 'GET', `${base(other.appId)}/${mine.id}`, { token: otherKey.key }), 404, 'not_found');
    });

    it('never oversells under concurrent completes', async () => {
      const limited = await product(f.appId, { title: 'Limited edition', price: 9900, currency: 'usd', inventory: 3 });
      const k = await acpKey(f.appId);
      const sessions = [];
      for (let i = 0; i < 8; i++) sessions.push(session(await post(base(), { line_items: [{ product_id: limited.id, quantity: 1 }] }, k.key), 201));
      const results = await Promise.all(sessions.map((s) => post(`${base()}/${s.id}/complete`, { payment_data: OK }, k.key)));
      const completed = results.filter((r) => r.status === 200 && r.body.status === 'completed');
      expect(completed).toHaveLength(3);
      for (const r of results) {
        if (r.status === 200) expectAcp(r.body.status === 'completed' ? 'CheckoutSessionWithOrder' : 'CheckoutSession', r.body);
        else expect([409]).toContain(r.status);
      }
      const listed = await p.admin('GET', `/apps/${f.appId}/products`);
      expect(listed.body.data.find((x: { id: string }) => x.id === limited.id).inventory).toBe(0);
    });
  });

  describe('request fields (ACP request objects are closed)', () => {
    it('refuses a field the operation does not define, naming it, on every POST', async () => {
      const created = session(await post(base(), { line_items: [{ product_id: ebook.id, quantity: 1 }] }), 201);
      const unknown = (res: TestResponse, param: string) => expect(acpError(res, 400, 'invalid').param).toBe(param);
      unknown(await post(base(), { line_items: [{ product_id: ebook.id, quantity: 1 }], shipping: 'fast' }), '$.shipping');
      unknown(await post(`${base()}/${created.id}`, { payment_data: OK }), '$.payment_data');
      unknown(await post(`${base()}/${created.id}/complete`, { payment_data: OK, line_items: [] }), '$.line_items');
      unknown(await post(`${base()}/${created.id}/cancel`, { reason: 'changed my mind' }), '$.reason');
      acpError(await post(base(), [{ product_id: ebook.id }]), 400, 'invalid');
      acpError(await post(base(), { line_items: [{ product_id: ebook.id, quantity: 1 }], capabilities: 'all' }), 400, 'invalid');
    });

    it('keeps fulfillment details, locale, timezone and metadata, and shows them on the session', async () => {
      const fulfillment_details = {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        phone_number: '+15551234567',
        address: { name: 'Ada Lovelace', line_one: '1 Main St', city: 'Springfield', state: 'IL', country: 'US', postal_code: '62701' },
      };
      const created = session(
        await post(base(), {
          line_items: [{ product_id: ebook.id, quantity: 1 }],
          currency: 'usd',
          capabilities: {},
          fulfillment_details,
          locale: 'en-US',
          timezone: 'America/Chicago',
          metadata: { campaign: 'fall' },
        }),
        201,
      );
      expect(created).toMatchObject({ fulfillment_details, locale: 'en-US', timezone: 'America/Chicago', metadata: { campaign: 'fall' } });
      const lineId = created.line_items[0].id;
      const updated = session(
        await post(`${base()}/${created.id}`, {
          fulfillment_details: { ...fulfillment_details, name: 'A. Lovelace' },
          selected_fulfillment_options: [{ type: 'digital', option_id: 'digital', item_ids: [lineId] }],
          order_notes: 'Gift, please',
        }),
        200,
      );
      expect(updated.fulfillment_details.name).toBe('A. Lovelace');
      expect(updated.locale).toBe('en-US');
      expect(session(await acpCall(p, 'GET', `${base()}/${created.id}`, { token: key.key }), 200)).toEqual(updated);
      const badAddress = await post(`${base()}/${created.id}`, { fulfillment_details: { address: { line_one: '1 Main St' } } });
      expect(acpError(badAddress, 400, 'missing').param).toBe('$.fulfillment_details.address.name');
      const badOption = await post(`${base()}/${created.id}`, {
        selected_fulfillment_options: [{ type: 'shipping', option_id: 'express', item_ids: [lineId] }],
      });
      expect(acpError(badOption, 400, 'invalid').param).toBe('$.selected_fulfillment_options[0]');
      const badItem = await post(`${base()}/${created.id}`, {
        selected_fulfillment_options: [{ type: 'digital', option_id: 'digital', item_ids: ['li_nope'] }],
      });
      expect(acpError(badItem, 400, 'invalid').param).toBe('$.selected_fulfillment_options[0].item_ids[0]');
    });

    it('answers discount codes as rejected (this platform has none), in the discounts extension', async () => {
      const created = session(
        await post(base(), { line_items: [{ product_id: ebook.id, quantity: 1 }], discounts: { codes: ['FALL10'] }, coupons: ['OLD5'] }),
        201,
      );
      expect(created.discounts).toEqual({
        codes: ['FALL10', 'OLD5'],
        applied: [],
        rejected: [
          { code: 'FALL10', reason: 'discount_code_invalid', message: expect.any(String) },
          { code: 'OLD5', reason: 'discount_code_invalid', message: expect.any(String) },
        ],
      });
      expect(created.totals.find((t: { type: string }) => t.type === 'total').amount).toBe(999);
    });

    it('keeps the whole buyer and shows it; buyer: null clears it', async () => {
      const k = await acpKey(f.appId);
      const buyer = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone_number: '+15551234567', company: { name: 'AE' } };
      const created = session(await post(base(), { line_items: [{ product_id: ebook.id }], buyer }, k.key), 201);
      expect(created.buyer).toEqual(buyer);
      const renamed = session(await post(`${base()}/${created.id}`, { buyer: { email: 'ada@example.org' } }, k.key), 200);
      expect(renamed.buyer).toEqual({ email: 'ada@example.org' });
      const cleared = session(await post(`${base()}/${created.id}`, { buyer: null }, k.key), 200);
      expect(cleared.buyer).toBeUndefined();
      const long = await post(`${base()}/${created.id}`, { buyer: { email: 'ada@example.com', company: { name: 'x'.repeat(257) } } }, k.key);
      expect(acpError(long, 400, 'invalid').param).toBe('$.buyer.company.name');
    });

    it('an authentication_result that says the buyer was not authenticated is not charged; one that could not run changes nothing', async () => {
      const k = await acpKey(f.appId);
      const stocked = await product(f.appId, { title: 'Card', price: 300, currency: 'usd', inventory: 3 });
      const created = session(await post(base(), { line_items: [{ product_id: stocked.id }] }, k.key), 201);
      for (const outcome of ['denied', 'rejected', 'canceled', 'abandoned']) {
        const declined = session(await post(`${base()}/${created.id}/complete`, { payment_data: OK, authentication_result: { outcome } }, k.key), 200);
        expect(declined.status).toBe('ready_for_payment');
        expect(declined.messages).toEqual([expect.objectContaining({ type: 'error', code: 'payment_declined', param: '$.authentication_result' })]);
      }
      const listed = await p.admin('GET', `/apps/${f.appId}/products`);
      expect(listed.body.data.find((x: { id: string }) => x.id === stocked.id).inventory).toBe(3);
      const done = session(
        await post(`${base()}/${created.id}/complete`, { payment_data: OK, authentication_result: { outcome: 'not_supported' } }, k.key),
        200,
      );
      expect(done.status).toBe('completed');
    });

    it('takes the buyer, order notes and the ACP hints on complete, and intent_trace on cancel', async () => {
      const a = session(await post(base(), { line_items: [{ product_id: ebook.id, quantity: 1 }] }), 201);
      const done = session(
        await post(`${base()}/${a.id}/complete`, {
          payment_data: OK,
          buyer: { email: 'buyer@example.com' },
          order_notes: 'Thanks',
          risk_signals: {},
          marketing_consents: [],
        }),
        200,
        'CheckoutSessionWithOrder',
      );
      expect(done.buyer).toEqual({ email: 'buyer@example.com' });
      const b = session(await post(base(), { line_items: [{ product_id: ebook.id, quantity: 1 }] }), 201);
      expect(session(await post(`${base()}/${b.id}/cancel`, { intent_trace: { reason_code: 'buyer_cancelled' } }), 200).status).toBe('canceled');
      const tooLong = await post(base(), { line_items: [{ product_id: ebook.id, quantity: 1 }], order_notes: 'x'.repeat(5001) });
      expect(acpError(tooLong, 400, 'invalid').param).toBe('$.order_notes');
    });
  });

  describe('Idempotency-Key, API-Version and Request-Id', () => {
    it('replays the stored answer with Idempotent-Replayed: true, and refuses the key with another body (422)', async () => {
      const body = { line_items: [{ product_id: mug.id, quantity: 1 }] };
      const first = await post(base(), body, key.key, { 'Idempotency-Key': 'idem-1', 'Request-Id': 'req-1' });
      session(first, 201);
      expect(first.headers.get('request-id')).toBe('req-1');
      expect(first.headers.get('idempotency-key')).toBe('idem-1');
      // Same meaning, other key order: a replay.
      const again = await post(base(), { line_items: [{ quantity: 1, product_id: mug.id }] }, key.key, { 'Idempotency-Key': 'idem-1' });
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const conflict = await post(base(), { line_items: [{ product_id: mug.id, quantity: 2 }] }, key.key, { 'Idempotency-Key': 'idem-1' });
      expect(conflict.status).toBe(422);
      expect(conflict.body).toEqual({
        type: 'invalid_request',
        code: 'idempotency_conflict',
        message: 'Idempotency-Key has already been used with a different request body',
      });
      expectAcp('Error', conflict.body);
      // Scoped to the route and the session: the same key on another endpoint is another request.
      const created = session(first, 201);
      session(await post(`${base()}/${created.id}`, {}, key.key, { 'Idempotency-Key': 'idem-1' }), 200);
    });

    it('replays a refusal under its key: the same status and body', async () => {
      // A key of its own: this file's other requests share the first key's rate limit.
      const own = await acpKey(f.appId);
      const body = { line_items: [{ product_id: mug.id, quantity: 1 }], unknown_field: true };
      const refused = await post(base(), body, own.key, { 'Idempotency-Key': 'idem-refused' });
      expect(acpError(refused, 400, 'invalid').param).toBe('$.unknown_field');
      const again = await post(base(), body, own.key, { 'Idempotency-Key': 'idem-refused' });
      expect(again.status).toBe(400);
      expect(again.body).toEqual(refused.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    });

    it('a complete replayed by key charges and reserves once', async () => {
      const stocked = await product(f.appId, { title: 'Sticker', price: 100, currency: 'usd', inventory: 10 });
      const created = session(await post(base(), { line_items: [{ product_id: stocked.id, quantity: 4 }] }), 201);
      const first = await post(`${base()}/${created.id}/complete`, { payment_data: OK }, key.key, { 'Idempotency-Key': 'pay-1' });
      const replay = await post(`${base()}/${created.id}/complete`, { payment_data: OK }, key.key, { 'Idempotency-Key': 'pay-1' });
      expect(replay.body).toEqual(first.body);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      const listed = await p.admin('GET', `/apps/${f.appId}/products`);
      expect(listed.body.data.find((x: { id: string }) => x.id === stocked.id).inventory).toBe(6);
    });

    it('answers 409 idempotency_in_flight with Retry-After while the first request runs', async () => {
      const body = { line_items: [{ product_id: ebook.id, quantity: 1 }] };
      const fingerprint = createHash('sha256').update(canonicalJson(body)).digest('hex');
      await p.deps.idempotency.begin(`${key.id}:acpCheckoutCreate::idem-busy`, fingerprint, Date.now());
      const res = await post(base(), body, key.key, { 'Idempotency-Key': 'idem-busy' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        type: 'invalid_request',
        code: 'idempotency_in_flight',
        message: 'A request with this Idempotency-Key is currently being processed',
      });
      expectAcp('Error', res.body);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.headers.get('idempotency-key')).toBe('idem-busy');
    });

    /** Every checkout route, as [method, path, body] for a session of the test's. */
    const routes = (id: string): [string, string, unknown][] => [
      ['POST', base(), { line_items: [{ product_id: ebook.id }] }],
      ['GET', `${base()}/${id}`, undefined],
      ['POST', `${base()}/${id}`, {}],
      ['POST', `${base()}/${id}/complete`, { payment_data: OK }],
      ['POST', `${base()}/${id}/cancel`, {}],
    ];

    it('API-Version is required on every checkout route: missing or unsupported is a 400 listing supported_versions, and changes nothing', async () => {
      const k = await acpKey(f.appId);
      const created = session(await post(base(), { line_items: [{ product_id: ebook.id }] }, k.key, { 'API-Version': '2026-04-17' }), 201);
      for (const [method, path, body] of routes(created.id)) {
        const missing = await acpCall(p, method, path, { token: k.key, body, omit: ['API-Version'], headers: { 'Request-Id': 'req-v' } });
        expect(missing.status, `${method} ${path}`).toBe(400);
        expect(missing.body).toEqual({
          type: 'invalid_request',
          code: 'missing_api_version',
          message: 'API-Version header is required: one of 2026-04-17',
          supported_versions: ['2026-04-17'],
        });
        expectAcp('Error', missing.body);
        expect(missing.headers.get('request-id')).toBe('req-v');
        for (const version of ['2025-09-29', '2026-01-30', 'latest', ' ']) {
          const other = await acpCall(p, method, path, { token: k.key, body, headers: { 'API-Version': version } });
          expect(other.status, `${method} ${path} ${version}`).toBe(400);
          expect(other.body.supported_versions).toEqual(['2026-04-17']);
          expect(other.body.code).toBe(version.trim() ? 'unsupported_api_version' : 'missing_api_version');
          expectAcp('Error', other.body);
        }
      }
      expect((await acpCall(p, 'GET', `${base()}/${created.id}`, { token: k.key })).body).toEqual(created);
    });

    it('Idempotency-Key is required on every POST (the RFC’s exact 400), at most 255 characters; a GET needs none', async () => {
      const k = await acpKey(f.appId);
      const created = session(await post(base(), { line_items: [{ product_id: ebook.id }] }, k.key), 201);
      for (const [method, path, body] of routes(created.id).filter(([m]) => m === 'POST')) {
        for (const init of [{ omit: ['Idempotency-Key'] }, { headers: { 'Idempotency-Key': '' } }]) {
          const res = await acpCall(p, method, path, { token: k.key, body, ...init });
          expect(res.status, `${path} ${JSON.stringify(init)}`).toBe(400);
          expect(res.body).toEqual({
            type: 'invalid_request',
            code: 'idempotency_key_required',
            message: 'Idempotency-Key header is required on all POST requests',
          });
          expectAcp('Error', res.body);
        }
        acpError(await acpCall(p, method, path, { token: k.key, body, headers: { 'Idempotency-Key': 'k'.repeat(256) } }), 400, 'invalid');
      }
      // API-Version is judged first.
      const neither = await acpCall(p, 'POST', base(), { token: k.key, body: {}, omit: ['API-Version', 'Idempotency-Key'] });
      expect(neither.body.code).toBe('missing_api_version');
      expect((await acpCall(p, 'GET', `${base()}/${created.id}`, { token: k.key })).body).toEqual(created);
      const longest = await post(base(), { line_items: [{ product_id: ebook.id }] }, k.key, { 'Idempotency-Key': 'k'.repeat(255) });
      session(longest, 201);
      expect(longest.headers.get('idempotency-key')).toBe('k'.repeat(255));
    });

    it('the key, the app and the rate limit are judged before the headers: the spec’s 401 and 403 stand', async () => {
      const bare = { omit: ['API-Version', 'Idempotency-Key'] };
      const missingKey = await acpCall(p, 'POST', base(), { body: { line_items: [{ product_id: ebook.id }] }, ...bare });
      expect(missingKey.status).toBe(401);
      expect(missingKey.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
      const other = await p.fixture();
      const k = await acpKey(f.appId);
      const foreign = await acpCall(p, 'POST', base(other.appId), { token: k.key, body: { line_items: [{ product_id: ebook.id }] }, ...bare });
      expect(foreign.status).toBe(403);
      expect(foreign.body).toEqual({ error: { code: 'forbidden', message: expect.any(String) } });
    });
  });
});
