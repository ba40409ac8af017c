/**
 * The DynamoDB calls of area C's checkout (create, update, complete), by kind, counted on the document
 * client every adapter of the local platform shares. The counts are exact: a call added to a checkout's
 * path fails here until it is argued for. The clock is pinned, so the key's last-use write (at most once
 * a minute) and the rate counter's window do not move between requests.
 * Every request counts itself against its key's rate limit (UpdateItem) and claims its Idempotency-Key
 * (PutItem), then stores its answer there (UpdateItem). What it decides on is read once, in one
 * BatchGetItem while the key is claimed: the app, the path's session, the products the body names, and
 * for a complete the app's order-event receiver. An update that names no line items reads its lines'
 * products in a second batch, and so does a complete, while its claim is written. A complete holds
 * only limited products (UpdateItem each), writes the order's pointer (PutItem) before the sale, and
 * clears its write-ahead record in the sale's own write when it held nothing; with holds, they are
 * committed (UpdateItem each) and the record cleared in one more write. A hold refused for want of
 * stock reads why (GetItem) and took nothing, so nothing is given back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acpCall } from '../support/acp-client';
import { TestClock } from '../support/clock';
import { countCalls, tableOf } from '../support/store';
import { startTestPlatform, type Fixture, type TestPlatform } from '../support/platform';

const PAY = { payment_data: { handler_id: 'platform_test_card', instrument: { type: 'card', credential: { type: 'spt', token: 'spt_test_ok' } } } };

describe('the DynamoDB calls of an ACP checkout', () => {
  let p: TestPlatform;
  let f: Fixture;
  let key: string;
  let ebook: string;
  let mug: string;
  let calls: ReturnType<typeof countCalls>;
  const base = () => `/acp/${f.appId}/checkout_sessions`;

  beforeAll(async () => {
    p = await startTestPlatform({ clock: new TestClock('2026-11-29T10:00:00.000Z', false) });
    f = await p.fixture();
    key = (await p.admin('POST', `/apps/${f.appId}/acp-keys`, {})).body.data.key;
    ebook = (await p.admin('POST', `/apps/${f.appId}/products`, { title: 'E-book', price: 999, currency: 'usd' })).body.data.id;
    mug = (await p.admin('POST', `/apps/${f.appId}/products`, { title: 'Mug', price: 1800, currency: 'usd', inventory: 50 })).body.data.id;
    calls = countCalls(tableOf(p));
    // A first request records the key's last use, which later ones do not repeat.
    expect((await acpCall(p, 'GET', `${base()}/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, { token: key })).status).toBe(404);
  });
  afterAll(() => p.stop());

  /** The calls of one checkout POST, by kind, and its answer. */
  async function counted(path: string, body: unknown): Promise<{ calls: Record<string, number>; body: Record<string, unknown> }> {
    calls.clear();
    const res = await acpCall(p, 'POST', path, { token: key, body });
    expect(res.status, res.text).toBeLessThan(300);
    return { calls: calls.counts(), body: res.body };
  }

  it('makes exactly these calls for a session of an unlimited product: create, update, complete', async () => {
    const created = await counted(base(), { line_items: [{ product_id: ebook, quantity: 1 }] });
    expect(created.calls).toEqual({ BatchGetItem: 1, PutItem: 2, UpdateItem: 2 });
    const id = String(created.body.id);
    const buyer = await counted(`${base()}/${id}`, { buyer: { email: 'buyer@example.com' } });
    expect(buyer.calls).toEqual({ BatchGetItem: 2, PutItem: 2, UpdateItem: 2 });
    const lines = await counted(`${base()}/${id}`, { line_items: [{ product_id: ebook, quantity: 2 }] });
    expect(lines.calls).toEqual({ BatchGetItem: 1, PutItem: 2, UpdateItem: 2 });
    const completed = await counted(`${base()}/${id}/complete`, PAY);
    expect(completed.body.status).toBe('completed');
    expect(completed.calls).toEqual({ BatchGetItem: 2, PutItem: 4, UpdateItem: 2 });
  });

  it('holds and commits only the limited line of a complete', async () => {
    const created = await counted(base(), {
      line_items: [
        { product_id: mug, quantity: 1 },
        { product_id: ebook, quantity: 1 },
      ],
    });
    expect(created.calls).toEqual({ BatchGetItem: 1, PutItem: 2, UpdateItem: 2 });
    const completed = await counted(`${base()}/${String(created.body.id)}/complete`, PAY);
    expect(completed.body.status).toBe('completed');
    expect(completed.calls).toEqual({ BatchGetItem: 2, PutItem: 5, UpdateItem: 4 });
    const stock = (await p.admin('GET', `/apps/${f.appId}/products`)).body.data as { id: string; inventory: number | null }[];
    expect(stock.find((x) => x.id === mug)?.inventory).toBe(49);
  });

  it('gives back nothing when its only hold finds the stock gone: the hold, the read of why, the settle', async () => {
    const print = (await p.admin('POST', `/apps/${f.appId}/products`, { title: 'Print', price: 5000, currency: 'usd', inventory: 1 })).body.data.id;
    const first = await counted(base(), { line_items: [{ product_id: print, quantity: 1 }] });
    const second = await counted(base(), { line_items: [{ product_id: print, quantity: 1 }] });
    expect((await counted(`${base()}/${String(first.body.id)}/complete`, PAY)).body.status).toBe('completed');
    const late = await counted(`${base()}/${String(second.body.id)}/complete`, PAY);
    expect(late.body.status).toBe('not_ready_for_payment');
    expect(late.calls).toEqual({ BatchGetItem: 2, GetItem: 1, PutItem: 3, UpdateItem: 3 });
  });
});
