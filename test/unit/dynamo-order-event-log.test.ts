/**
 * The order-event log and the order-webhook store of area C against the embedded DynamoDB: the per
 * order cursor, its claim (one conditional UpdateItem: one worker per attempt, a stale claim taken
 * over, a passed revision or a retry not due yet refused), its finish, and the attempts log.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoOrderEventLog } from '../../functions/acp/adapters/dynamo-order-event-log';
import { DynamoOrderWebhookStore } from '../../functions/acp/adapters/dynamo-order-webhook-store';
import type { OrderEventLogEntry } from '../../functions/acp/domain/order-event';
import { startTestTable, type TestTable } from '../support/dynamo';

const T0 = 1_780_000_000_000_000;
const LEASE = 60_000_000;

let t: TestTable;
let log: DynamoOrderEventLog;

beforeAll(async () => {
  t = await startTestTable();
  log = new DynamoOrderEventLog(t.db, t.table);
});
afterAll(() => t.stop());

const entry = (revision: number, attempt: number, outcome: OrderEventLogEntry['outcome'], extra: Partial<OrderEventLogEntry> = {}): OrderEventLogEntry => ({
  revision,
  type: revision === 1 ? 'order_create' : 'order_update',
  attempt,
  attemptedAtUs: T0 + revision * 1_000_000 + attempt,
  latencyMs: 12,
  outcome,
  ...(outcome === 'delivered' ? { httpStatus: 200 } : {}),
  ...extra,
});

describe('DynamoOrderEventLog', () => {
  it('starts every order at nothing delivered', async () => {
    expect(await log.cursor(randomUUID())).toEqual({ deliveredThrough: 0, attempts: 0, notBeforeUs: 0 });
  });

  it('lets exactly one of two concurrent claims win', async () => {
    for (let i = 0; i < 5; i++) {
      const id = randomUUID();
      const won = await Promise.all([log.claim(id, 1, T0, T0 - LEASE), log.claim(id, 1, T0, T0 - LEASE)]);
      expect(won.filter(Boolean)).toHaveLength(1);
    }
    const id = randomUUID();
    const many = await Promise.all(Array.from({ length: 10 }, () => log.claim(id, 1, T0, T0 - LEASE)));
    expect(many.filter(Boolean)).toHaveLength(1);
  });

  it('refuses a fresh claim and lets a stale one be taken over', async () => {
    const id = randomUUID();
    expect(await log.claim(id, 1, T0, T0 - LEASE)).toBe(true);
    // Another worker 30 s later: the first claim is still within its lease.
    expect(await log.claim(id, 1, T0 + 30_000_000, T0 + 30_000_000 - LEASE)).toBe(false);
    // 61 s later the claimer is taken for dead.
    const later = T0 + 61_000_000;
    expect(await log.claim(id, 1, later, later - LEASE)).toBe(true);
    expect(await log.claim(id, 1, later, later - LEASE)).toBe(false);
  });

  it('moves the cursor past a done event, releases the claim, and refuses a claim for a revision it passed', async () => {
    const id = randomUUID();
    expect(await log.claim(id, 1, T0, T0 - LEASE)).toBe(true);
    await log.finish(id, entry(1, 1, 'delivered'), true, 0);
    expect(await log.cursor(id)).toEqual({ deliveredThrough: 1, attempts: 0, notBeforeUs: 0 });
    // A duplicate message of revision 1 (a crash after the finish): refused, however stale.
    expect(await log.claim(id, 1, T0 + 1, T0 + 1)).toBe(false);
    expect(await log.claim(id, 1, T0 + 10 * LEASE, T0 + 9 * LEASE)).toBe(false);
    // The next event may go at once.
    expect(await log.claim(id, 2, T0 + 2, T0 + 2 - LEASE)).toBe(true);
  });

  it('keeps the cursor on a retried event and refuses its claim until the wait is over', async () => {
    const id = randomUUID();
    expect(await log.claim(id, 1, T0, T0 - LEASE)).toBe(true);
    const notBefore = T0 + 10_000_000;
    await log.finish(id, entry(1, 1, 'retry', { httpStatus: 500 }), false, notBefore);
    expect(await log.cursor(id)).toEqual({ deliveredThrough: 0, attempts: 1, notBeforeUs: notBefore });
    expect(await log.claim(id, 1, notBefore - 1, notBefore - 1 - LEASE)).toBe(false);
    expect(await log.claim(id, 1, notBefore, notBefore - LEASE)).toBe(true);
    // Finishing the same attempt twice counts it once.
    await log.finish(id, entry(1, 2, 'retry', { httpStatus: 503 }), false, notBefore + 60_000_000);
    await log.finish(id, entry(1, 2, 'retry', { httpStatus: 503 }), false, notBefore + 60_000_000);
    expect((await log.cursor(id)).attempts).toBe(2);
  });

  it('claims the first event of an outbox that starts above the cursor (a receiver set after the sale)', async () => {
    const id = randomUUID();
    expect(await log.claim(id, 3, T0, T0 - LEASE)).toBe(true);
    await log.finish(id, entry(3, 1, 'delivered'), true, 0);
    expect((await log.cursor(id)).deliveredThrough).toBe(3);
    expect(await log.claim(id, 2, T0 + 1, T0 + 1 - LEASE)).toBe(false);
  });

  it('ignores a late finish of an attempt another worker took over and finished, but logs it', async () => {
    const id = randomUUID();
    expect(await log.claim(id, 1, T0, T0 - LEASE)).toBe(true);
    const later = T0 + 2 * LEASE;
    expect(await log.claim(id, 1, later, later - LEASE)).toBe(true);
    await log.finish(id, entry(1, 1, 'delivered'), true, 0);
    expect(await log.claim(id, 2, later + 1, later + 1 - LEASE)).toBe(true);
    // The first worker comes back with a retry: neither the cursor of revision 2 nor its claim moves.
    await log.finish(id, entry(1, 1, 'retry', { httpStatus: 500, attemptedAtUs: T0 }), false, later + 100_000_000);
    expect(await log.cursor(id)).toEqual({ deliveredThrough: 1, attempts: 0, notBeforeUs: 0 });
    expect(await log.claim(id, 2, later + 2, later + 2 - LEASE)).toBe(false);
  });

  it('lists the attempts newest first (revision, then attempt), with their fields, up to the limit', async () => {
    const id = randomUUID();
    const finished = [
      entry(1, 1, 'retry', { httpStatus: 429 }),
      entry(1, 2, 'delivered'),
      entry(2, 1, 'dropped', { error: 'refused_address' }),
      entry(10, 1, 'delivered'),
    ];
    for (const e of finished) {
      await log.claim(id, e.revision, e.attemptedAtUs, e.attemptedAtUs - LEASE);
      await log.finish(id, e, e.outcome !== 'retry', e.outcome === 'retry' ? e.attemptedAtUs : 0);
    }
    expect(await log.list(id, 10)).toEqual([...finished].reverse());
    expect(await log.list(id, 2)).toEqual([finished[3], finished[2]]);
    // The log lives beside the session and its cursor, under keys of its own.
    expect(await log.list(randomUUID(), 10)).toEqual([]);
  });
});

describe('DynamoOrderWebhookStore', () => {
  it('puts, replaces, reads and removes an app receiver', async () => {
    const store = new DynamoOrderWebhookStore(t.db, t.table);
    const appId = randomUUID();
    expect(await store.get(appId)).toBeUndefined();
    const webhook = { appId, orgId: randomUUID(), url: 'https://agent.example/orders', sealedSecret: 'local1:abc', createdAtUs: T0, updatedAtUs: T0 };
    await store.put(webhook);
    expect(await store.get(appId)).toEqual(webhook);
    const replaced = { ...webhook, url: 'https://agent.example/v2/orders', updatedAtUs: T0 + 1 };
    await store.put(replaced);
    expect(await store.get(appId)).toEqual(replaced);
    await store.remove(appId);
    expect(await store.get(appId)).toBeUndefined();
  });
});
