/**
 * An app's order list over the production DynamoDB adapter: newest first, a page at a time by a keyset
 * cursor that never skips or repeats an order (orders placed in the same microsecond included), only
 * the app's own orders, and a cursor the store did not write refused as a 400.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoCheckoutStore } from '../../functions/acp/adapters/dynamo-checkout-store';
import type { CheckoutSession } from '../../functions/acp/domain/checkout';
import { newOrder } from '../../functions/acp/domain/order';
import { outcome } from '../support/domain-error';
import { startTestTable, type TestTable } from '../support/dynamo';

const T0 = Date.parse('2026-11-01T00:00:00.000Z') * 1000;
const APP = randomUUID();

function sale(appId: string, createdAtUs: number): CheckoutSession {
  const id = randomUUID();
  const orderId = randomUUID();
  return {
    id,
    orgId: 'org-orders',
    appId,
    status: 'completed',
    currency: 'usd',
    lines: [{ lineId: 'li_1', productId: randomUUID(), title: 'Mug', unitAmount: 1800, quantity: 1 }],
    buyerEmail: null,
    messages: [],
    order: newOrder({ id: orderId, createdAtUs, paymentReference: `ch_${id}`, permalinkUrl: `https://shop.example/acp/${appId}/checkout_sessions/${id}` }),
    details: {},
    completion: null,
    createdAtUs,
    updatedAtUs: createdAtUs,
    expiresAtUs: createdAtUs + 3_600_000_000,
    version: 1,
  } as CheckoutSession;
}

describe('DynamoCheckoutStore: an app’s orders', () => {
  let t: TestTable;
  let store: DynamoCheckoutStore;
  // Seven orders, two of them in the same microsecond (the order id breaks the tie), and another app's.
  const times = [0, 1, 2, 2, 3, 4, 5].map((i) => T0 + i * 1000);
  let mine: CheckoutSession[];

  beforeAll(async () => {
    t = await startTestTable();
    store = new DynamoCheckoutStore(t.db, t.table);
    mine = times.map((at) => sale(APP, at));
    for (const s of [...mine, sale(randomUUID(), T0 + 2500)]) await store.create(s);
  });
  afterAll(() => t?.stop());

  it('pages newest first, each order once, with a cursor until the last page', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await store.listCompletedByApp(APP, 3, cursor);
      seen.push(...page.sessions.map((s) => s.order!.id));
      cursor = page.cursor;
      pages++;
    } while (cursor !== undefined);
    const expected = [...mine].sort((a, b) => b.order!.createdAtUs - a.order!.createdAtUs || (a.order!.id < b.order!.id ? 1 : -1)).map((s) => s.order!.id);
    expect(seen).toEqual(expected);
    expect(pages).toBe(3);
  });

  it('has no cursor when the page holds the rest exactly', async () => {
    const page = await store.listCompletedByApp(APP, mine.length);
    expect(page.sessions).toHaveLength(mine.length);
    expect(page.cursor).toBeUndefined();
  });

  it('refuses a cursor it did not write', async () => {
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
    for (const cursor of ['', 'not json', forged({ at: 1 }), forged([-1, randomUUID()]), forged([1.5, randomUUID()]), forged([T0, 'x#y'])]) {
      expect(await outcome(store.listCompletedByApp(APP, 3, cursor)), cursor).toBe('bad_request');
    }
  });
});
