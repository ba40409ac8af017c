/**
 * Completes that do not end in one piece, over HTTP against the local platform: a payment outcome that
 * is unknown, a crash between the charge and the session write, a failure between two stock holds, a
 * failure of the rollback itself. Each is finished by the `checkout-recovery` job once the 2-minute
 * lease ran out, charging at most once (the same idempotency key), with every unit of stock accounted
 * for: sold, or given back. Faults are injected into the real DynamoDB client (test/support/store.ts)
 * and into the payment gateway.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestPaymentProvider } from '../../functions/acp/adapters/test-payment-provider';
import type { ChargeRequest, PaymentProvider, PaymentOutcome, RefundRequest } from '../../functions/acp/app/acp-ports';
import { acpCall } from '../support/acp-client';
import { expectAcp } from '../support/acp-schemas';
import { TestClock } from '../support/clock';
import { startTestPlatform, type Fixture, type TestPlatform, type TestResponse } from '../support/platform';
import { injectFault, itemsUnder, tableOf, type PlatformTable } from '../support/store';

const OK = { handler_id: 'platform_test_card', instrument: { type: 'card', credential: { type: 'spt', token: 'spt_test_ok' } } };
const DECLINED = { handler_id: 'platform_test_card', instrument: { type: 'card', credential: { type: 'spt', token: 'spt_test_declined' } } };
const LEASE_MS = 2 * 60 * 1000;

/** The test handler behind switches: the provider charges, then the answer is lost; or it refuses outright. */
class FlakyGateway implements PaymentProvider {
  readonly inner = new TestPaymentProvider();
  readonly calls: ChargeRequest[] = [];
  /** Charges that reached the "provider" for the first time under their key (what would move money). */
  readonly charged = new Set<string>();
  mode: 'normal' | 'lose-answer' | 'down' | 'refuse' = 'normal';

  handlers() {
    return this.inner.handlers();
  }

  async charge(input: ChargeRequest): Promise<PaymentOutcome> {
    this.calls.push(input);
    if (this.mode === 'down') throw new Error('connect ECONNREFUSED');
    if (this.mode === 'refuse') return { status: 'failed', message: 'invalid API key' };
    const outcome = await this.inner.charge(input);
    if (outcome.status === 'succeeded') this.charged.add(input.idempotencyKey);
    if (this.mode === 'lose-answer') throw new Error('socket hang up');
    return outcome;
  }

  /** Refunds are not under test here: the test handler's, whatever the mode. */
  refund(input: RefundRequest) {
    return this.inner.refund(input);
  }
}

describe('ACP checkout: completes finished by recovery', () => {
  const clock = new TestClock('2026-07-01T10:00:00.000Z', false);
  const gateway = new FlakyGateway();
  let p: TestPlatform;
  let t: PlatformTable;
  let f: Fixture;
  let key: string;

  const product = async (body: Record<string, unknown>) => {
    const res = await p.admin('POST', `/apps/${f.appId}/products`, body);
    expect(res.status, res.text).toBe(201);
    return res.body.data as { id: string };
  };
  const base = () => `/acp/${f.appId}/checkout_sessions`;
  const post = (path: string, body: unknown) => acpCall(p, 'POST', path, { token: key, body });
  const session = (res: TestResponse, status: number) => {
    expect(res.status, res.text).toBe(status);
    expectAcp(res.body.order ? 'CheckoutSessionWithOrder' : 'CheckoutSession', res.body);
    return res.body;
  };
  const recover = async () => {
    const res = await p.admin('POST', '/jobs/checkout-recovery/runs');
    expect(res.status, res.text).toBe(200);
    return res.body.data.result as Record<string, number>;
  };
  /** Stock left and the holds still recorded on the product item. */
  const stock = async (productId: string) => {
    const [item] = await itemsUnder(t, `PRODUCT#${productId}`);
    return { inventory: item!.inventory as number, holds: [...((item!.holds as Set<string> | undefined) ?? [])] };
  };
  const open = async (lines: { product_id: string; quantity: number }[]) => session(await post(base(), { line_items: lines }), 201).id as string;

  beforeAll(async () => {
    p = await startTestPlatform({ clock, payments: gateway });
    t = tableOf(p);
    f = await p.fixture();
    const res = await p.admin('POST', `/apps/${f.appId}/acp-keys`, {});
    key = res.body.data.key;
  });
  afterAll(() => p.stop());
  beforeEach(() => {
    gateway.mode = 'normal';
    gateway.calls.length = 0;
  });

  it('an unknown payment outcome answers complete_in_progress, and recovery completes it with one charge', async () => {
    const poster = await product({ title: 'Poster', price: 2500, currency: 'usd', inventory: 5 });
    const id = await open([{ product_id: poster.id, quantity: 2 }]);
    gateway.mode = 'lose-answer';
    const pending = session(await post(`${base()}/${id}/complete`, { payment_data: OK }), 200);
    expect(pending.status).toBe('complete_in_progress');
    expect(pending.order).toBeUndefined();
    // The units are held meanwhile, and the session refuses every other write.
    expect((await stock(poster.id)).inventory).toBe(3);
    for (const path of [`${base()}/${id}`, `${base()}/${id}/cancel`, `${base()}/${id}/complete`]) {
      const busy = await post(path, path.endsWith('complete') ? { payment_data: OK } : {});
      expect(busy.status, busy.text).toBe(409);
      expectAcp('Error', busy.body);
    }
    gateway.mode = 'normal';
    // Within the lease the request may still be running: recovery leaves it alone.
    expect(await recover()).toMatchObject({ stillPending: 1, completed: 0 });
    clock.advance(LEASE_MS + 1_000);
    expect(await recover()).toMatchObject({ completed: 1, stillPending: 0 });
    const done = session(await acpCall(p, 'GET', `${base()}/${id}`, { token: key }), 200);
    expect(done.status).toBe('completed');
    expect(done.order).toMatchObject({ type: 'order', checkout_session_id: id });
    // Both attempts used one idempotency key, so the provider charged once.
    const keys = gateway.calls.map((c) => c.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
    expect(gateway.charged.size).toBeGreaterThan(0);
    expect(await stock(poster.id)).toEqual({ inventory: 3, holds: [] });
    expect(await recover()).toMatchObject({ completed: 0, stillPending: 0 });
  });

  it('a crash between the charge and the session write: the 5xx complete is finished by recovery, charged once', async () => {
    const print = await product({ title: 'Print', price: 700, currency: 'usd', inventory: 4 });
    const id = await open([{ product_id: print.id, quantity: 1 }]);
    const fault = injectFault(t, { command: 'PutItemCommand', match: (input) => (input.Item as { status?: string } | undefined)?.status === 'completed' });
    const crashed = await post(`${base()}/${id}/complete`, { payment_data: OK });
    fault.remove();
    expect(fault.fired).toBe(true);
    expect(crashed.status, crashed.text).toBe(500);
    const stuck = session(await acpCall(p, 'GET', `${base()}/${id}`, { token: key }), 200);
    expect(stuck.status).toBe('complete_in_progress');
    clock.advance(LEASE_MS + 1_000);
    expect(await recover()).toMatchObject({ completed: 1 });
    const done = session(await acpCall(p, 'GET', `${base()}/${id}`, { token: key }), 200);
    expect(done.status).toBe('completed');
    expect(new Set(gateway.calls.map((c) => c.idempotencyKey)).size).toBe(1);
    expect(await stock(print.id)).toEqual({ inventory: 3, holds: [] });
  });

  it('a failure between two stock holds gives every unit back and leaves the session payable', async () => {
    const a = await product({ title: 'Card A', price: 300, currency: 'usd', inventory: 2 });
    const b = await product({ title: 'Card B', price: 400, currency: 'usd', inventory: 2 });
    const id = await open([
      { product_id: a.id, quantity: 1 },
      { product_id: b.id, quantity: 1 },
    ]);
    const fault = injectFault(t, {
      command: 'UpdateItemCommand',
      match: (input) => (input.Key as { pk: string }).pk === `PRODUCT#${b.id}` && String(input.UpdateExpression).includes('ADD holds'),
    });
    const failed = await post(`${base()}/${id}/complete`, { payment_data: OK });
    fault.remove();
    expect(failed.status, failed.text).toBe(500);
    expect(gateway.calls).toHaveLength(0);
    expect(await stock(a.id)).toEqual({ inventory: 2, holds: [] });
    expect(await stock(b.id)).toEqual({ inventory: 2, holds: [] });
    const again = session(await post(`${base()}/${id}/complete`, { payment_data: OK }), 200);
    expect(again.status).toBe('completed');
    expect((await stock(a.id)).inventory).toBe(1);
    expect((await stock(b.id)).inventory).toBe(1);
  });

  it('when the rollback fails too, recovery finishes the complete: each unit taken once', async () => {
    const a = await product({ title: 'Pin A', price: 300, currency: 'usd', inventory: 3 });
    const b = await product({ title: 'Pin B', price: 400, currency: 'usd', inventory: 3 });
    const id = await open([
      { product_id: a.id, quantity: 2 },
      { product_id: b.id, quantity: 1 },
    ]);
    const holdFault = injectFault(t, {
      command: 'UpdateItemCommand',
      match: (input) => (input.Key as { pk: string }).pk === `PRODUCT#${b.id}` && String(input.UpdateExpression).includes('ADD holds'),
    });
    const rollbackFault = injectFault(t, {
      command: 'PutItemCommand',
      match: (input) => (input.Item as { status?: string } | undefined)?.status === 'ready_for_payment',
    });
    expect((await post(`${base()}/${id}/complete`, { payment_data: OK })).status).toBe(500);
    holdFault.remove();
    rollbackFault.remove();
    expect(rollbackFault.fired).toBe(true);
    expect(session(await acpCall(p, 'GET', `${base()}/${id}`, { token: key }), 200).status).toBe('complete_in_progress');
    clock.advance(LEASE_MS + 1_000);
    // Two recoverers at once (the schedule and a manual run): one takes the claim over, the other backs off.
    const [r1, r2] = await Promise.all([recover(), recover()]);
    expect((r1.completed ?? 0) + (r2.completed ?? 0)).toBe(1);
    expect(session(await acpCall(p, 'GET', `${base()}/${id}`, { token: key }), 200).status).toBe('completed');
    expect(await stock(a.id)).toEqual({ inventory: 1, holds: [] });
    expect(await stock(b.id)).toEqual({ inventory: 2, holds: [] });
    expect(new Set(gateway.calls.map((c) => c.idempotencyKey)).size).toBe(1);
  });

  it('a decline found by recovery gives the units back: ready_for_payment with payment_declined', async () => {
    const mug = await product({ title: 'Mug', price: 1800, currency: 'usd', inventory: 2 });
    const id = await open([{ product_id: mug.id, quantity: 2 }]);
    gateway.mode = 'down';
    expect(session(await post(`${base()}/${id}/complete`, { payment_data: DECLINED }), 200).status).toBe('complete_in_progress');
    expect((await stock(mug.id)).inventory).toBe(0);
    gateway.mode = 'normal';
    clock.advance(LEASE_MS + 1_000);
    expect(await recover()).toMatchObject({ settledOtherwise: 1 });
    const back = session(await acpCall(p, 'GET', `${base()}/${id}`, { token: key }), 200);
    expect(back.status).toBe('ready_for_payment');
    expect(back.messages).toEqual([expect.objectContaining({ type: 'error', code: 'payment_declined', param: '$.payment_data' })]);
    expect(await stock(mug.id)).toEqual({ inventory: 2, holds: [] });
    // A new attempt is a new charge key: the buyer may pay with another card.
    const paid = session(await post(`${base()}/${id}/complete`, { payment_data: OK }), 200);
    expect(paid.status).toBe('completed');
    expect(new Set(gateway.calls.map((c) => c.idempotencyKey)).size).toBe(2);
  });

  it('a provider that refuses the request (nothing charged) gives the units back with a message', async () => {
    const cap = await product({ title: 'Cap', price: 1500, currency: 'usd', inventory: 1 });
    const id = await open([{ product_id: cap.id, quantity: 1 }]);
    gateway.mode = 'refuse';
    const refused = session(await post(`${base()}/${id}/complete`, { payment_data: OK }), 200);
    expect(refused.status).toBe('ready_for_payment');
    expect(refused.messages).toEqual([
      expect.objectContaining({ type: 'error', code: 'invalid', param: '$.payment_data', content: expect.stringContaining('nothing was charged') }),
    ]);
    expect(await stock(cap.id)).toEqual({ inventory: 1, holds: [] });
  });

  it('keeps for recovery a fresh payment_data of the checked members only, and charges with exactly that', async () => {
    const notebook = await product({ title: 'Notebook', price: 300, currency: 'usd' });
    const id = await open([{ product_id: notebook.id, quantity: 1 }]);
    const billing_address = { name: 'Ada Lovelace', line_one: '1 Main St', city: 'Springfield', state: 'IL', country: 'US', postal_code: '62701' };
    // No handler_id (the only handler is chosen), and B2B members that are checked but mean nothing here.
    const sent = { instrument: OK.instrument, billing_address, payment_terms: 'immediate', due_date: '2026-07-01T10:00:00Z', approval_required: false };
    gateway.mode = 'lose-answer';
    expect(session(await post(`${base()}/${id}/complete`, { payment_data: sent }), 200).status).toBe('complete_in_progress');
    const kept = { handler_id: 'platform_test_card', instrument: OK.instrument, billing_address };
    const [item] = await itemsUnder(t, `CHECKOUT#${id}`);
    expect((item!.completion as { paymentData: unknown }).paymentData).toEqual(kept);
    expect(gateway.calls[0]!.paymentData).toStrictEqual(kept);
    gateway.mode = 'normal';
    clock.advance(LEASE_MS + 1_000);
    expect(await recover()).toMatchObject({ completed: 1 });
    expect(gateway.calls[1]!.paymentData).toStrictEqual(kept);
  });

  it('accepts the 2025-09-29 payment_data { token, provider } and refuses payment_data without a token', async () => {
    const pen = await product({ title: 'Pen', price: 200, currency: 'usd' });
    const id = await open([{ product_id: pen.id, quantity: 1 }]);
    const missing = await post(`${base()}/${id}/complete`, { payment_data: { handler_id: 'platform_test_card' } });
    expect(missing.status, missing.text).toBe(400);
    expectAcp('Error', missing.body);
    expect(missing.body).toMatchObject({ code: 'missing', param: '$.payment_data.instrument' });
    const malformed = await post(`${base()}/${id}/complete`, { payment_data: { instrument: { type: 'card', credential: {} } } });
    expect(malformed.status, malformed.text).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'missing', param: '$.payment_data.instrument.credential.type' });
    const legacy = session(await post(`${base()}/${id}/complete`, { payment_data: { token: 'spt_test_ok', provider: 'stripe' } }), 200);
    expect(legacy.status).toBe('completed');
  });
});
