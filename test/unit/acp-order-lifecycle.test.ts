/**
 * The order lifecycle (functions/acp/domain/order.ts): the rules of each change, and, over random
 * sequences of fulfillments, deliveries, refunds and cancellations (fast-check, fixed seed), the
 * invariants an agent platform relies on: quantities within bounds, refunds never past the charge,
 * every unit given back to stock exactly once, one revision (one event) per settled change, and a view
 * valid against the official ACP Order schema.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CheckoutLine } from '../../functions/acp/domain/checkout';
import { DomainError } from '../../functions/kernel/domain/errors';
import {
  cancel,
  fulfill,
  lineProgress,
  markDelivered,
  markRestocked,
  newOrder,
  orderView,
  owedRestocks,
  pendingRefund,
  refund,
  refundedAmount,
  settleRefund,
  type OrderState,
} from '../../functions/acp/domain/order';
import { expectAcp } from '../support/acp-schemas';

const LINES: CheckoutLine[] = [
  { lineId: 'li_mug', productId: '00000000-0000-4000-8000-000000000001', title: 'Mug', unitAmount: 1800, quantity: 2 },
  { lineId: 'li_tee', productId: '00000000-0000-4000-8000-000000000002', title: 'Tee', unitAmount: 2500, quantity: 3 },
];
const CHARGED = 1800 * 2 + 2500 * 3;
const S = { id: 'cs_1', appId: 'app_1', lines: LINES, currency: 'usd' };
const TOTALS = [
  { type: 'subtotal', display_text: 'Subtotal', amount: CHARGED },
  { type: 'total', display_text: 'Total', amount: CHARGED },
];
const placed = () =>
  newOrder({ id: 'ord_1', createdAtUs: 1_000_000, paymentReference: 'test_charge_1', permalinkUrl: 'https://shop.example/acp/app_1/checkout_sessions/cs_1' });

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof DomainError ? err.code : String(err);
  }
  return 'ok';
};

describe('order lifecycle: the rules of each change', () => {
  it('a shipment of every unit makes the order shipped, their delivery completed; each change raises the revision by one', () => {
    const shipped = fulfill(S, placed(), { id: 'ful_1', type: 'shipping', status: 'shipped', carrier: 'UPS', trackingNumber: '1Z', atUs: 2 });
    expect(shipped).toMatchObject({ status: 'shipped', revision: 2 });
    expect(lineProgress(LINES, shipped).map((p) => p.fulfilled)).toEqual([2, 3]);
    expect(markDelivered(S, shipped, 'ful_1', 3)).toMatchObject({ status: 'completed', revision: 3 });
  });

  it('a partial shipment is processing, and no line ships more than it has left', () => {
    const part = fulfill(S, placed(), { id: 'ful_1', type: 'shipping', status: 'shipped', lines: [{ lineId: 'li_mug', quantity: 1 }], atUs: 2 });
    expect(part.status).toBe('processing');
    expect(code(() => fulfill(S, part, { id: 'ful_2', type: 'shipping', status: 'shipped', lines: [{ lineId: 'li_mug', quantity: 2 }], atUs: 3 }))).toBe(
      'conflict',
    );
    expect(code(() => fulfill(S, part, { id: 'ful_2', type: 'shipping', status: 'shipped', lines: [{ lineId: 'li_nope', quantity: 1 }], atUs: 3 }))).toBe(
      'bad_request',
    );
  });

  it('a refund is pending without a new revision; its settlement is the one revision of the change', () => {
    const shipped = fulfill(S, placed(), { id: 'ful_1', type: 'shipping', status: 'shipped', atUs: 2 });
    const { order, restock } = refund(S, shipped, CHARGED, { id: 'adj_1', amount: 500, lines: [{ lineId: 'li_mug', quantity: 1 }], atUs: 3 });
    expect(order.revision).toBe(2);
    expect(restock).toEqual([{ lineId: 'li_mug', quantity: 1 }]);
    expect(pendingRefund(order)?.id).toBe('adj_1');
    expect(lineProgress(LINES, order)[0]).toMatchObject({ ordered: 2, current: 1, fulfilled: 1 });
    const settled = settleRefund(S, order, 'adj_1', { reference: 're_1' });
    expect(settled.revision).toBe(3);
    expect(refundedAmount(settled)).toBe(500);
    expect(code(() => refund(S, settled, CHARGED, { id: 'adj_2', amount: CHARGED - 499, atUs: 4 }))).toBe('conflict');
  });

  it('a cancellation gives back the units not sent, refunds the rest once, and cannot happen twice', () => {
    const part = fulfill(S, placed(), { id: 'ful_1', type: 'shipping', status: 'shipped', lines: [{ lineId: 'li_tee', quantity: 1 }], atUs: 2 });
    const c = cancel(S, part, CHARGED, { cancellationId: 'adj_c', refundId: 'adj_r', refund: true, atUs: 3 });
    expect(c.order.status).toBe('canceled');
    expect(c.restock).toEqual([
      { lineId: 'li_mug', quantity: 2 },
      { lineId: 'li_tee', quantity: 2 },
    ]);
    expect(c.refund).toMatchObject({ amount: CHARGED, status: 'pending' });
    expect(c.order.revision).toBe(2);
    expect(
      code(() => cancel(S, settleRefund(S, c.order, 'adj_r', { reference: 're' }), CHARGED, { cancellationId: 'x', refundId: 'y', refund: true, atUs: 4 })),
    ).toBe('conflict');
    expect(code(() => fulfill(S, c.order, { id: 'ful_2', type: 'shipping', status: 'shipped', atUs: 4 }))).toBe('conflict');
  });

  it('the view is an official ACP Order at every step', () => {
    const shipped = fulfill(S, placed(), {
      id: 'ful_1',
      type: 'shipping',
      status: 'shipped',
      carrier: 'UPS',
      trackingNumber: '1Z',
      trackingUrl: 'https://ups.example/t/1Z',
      atUs: 2,
    });
    const r = refund(S, shipped, CHARGED, { id: 'adj_1', amount: 500, lines: [{ lineId: 'li_mug', quantity: 1 }], reason: 'Chipped', atUs: 3 });
    const settled = settleRefund(S, r.order, 'adj_1', { reference: 're_1' });
    for (const o of [placed(), shipped, r.order, settled]) expectAcp('Order', orderView(S, o, TOTALS, 'https://shop.example'));
    expect(orderView(S, settled, TOTALS, 'https://x').totals.at(-1)).toEqual({ type: 'amount_refunded', display_text: 'Refunded', amount: 500 });
  });
});

type Op =
  | { kind: 'ship'; line: number; quantity: number; delivered: boolean }
  | { kind: 'deliver'; index: number }
  | { kind: 'refund'; amount: number; line: number; quantity: number }
  | { kind: 'settle'; ok: boolean }
  | { kind: 'restock' }
  | { kind: 'cancel'; refund: boolean };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('ship' as const), line: fc.nat(1), quantity: fc.integer({ min: 1, max: 3 }), delivered: fc.boolean() }),
  fc.record({ kind: fc.constant('deliver' as const), index: fc.nat(4) }),
  fc.record({
    kind: fc.constant('refund' as const),
    amount: fc.integer({ min: 1, max: CHARGED + 10 }),
    line: fc.nat(2),
    quantity: fc.integer({ min: 0, max: 2 }),
  }),
  fc.record({ kind: fc.constant('settle' as const), ok: fc.boolean() }),
  fc.constant({ kind: 'restock' as const }),
  fc.record({ kind: fc.constant('cancel' as const), refund: fc.boolean() }),
);

describe('order lifecycle: invariants over random sequences', () => {
  it('holds every invariant after every change (seeded)', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        let o: OrderState = placed();
        const restocked = new Map<string, number>();
        const restock = (units: { lineId: string; quantity: number }[]) => {
          for (const u of units) restocked.set(u.lineId, (restocked.get(u.lineId) ?? 0) + u.quantity);
        };
        let at = 10;
        for (const x of ops) {
          const before = o.revision;
          try {
            if (x.kind === 'ship') {
              o = fulfill(S, o, {
                id: `ful_${at}`,
                type: 'shipping',
                status: x.delivered ? 'delivered' : 'shipped',
                lines: [{ lineId: LINES[x.line]!.lineId, quantity: x.quantity }],
                atUs: at,
              });
              expect(o.revision).toBe(before + 1);
            } else if (x.kind === 'deliver') {
              const f = o.fulfillments[x.index];
              if (f) o = markDelivered(S, o, f.id, at);
            } else if (x.kind === 'refund') {
              const lines = x.quantity > 0 && x.line < 2 ? [{ lineId: LINES[x.line]!.lineId, quantity: x.quantity }] : undefined;
              o = refund(S, o, CHARGED, { id: `adj_${at}`, amount: x.amount, lines, atUs: at }).order;
              expect(o.revision).toBe(before);
            } else if (x.kind === 'settle') {
              const p = pendingRefund(o);
              if (p) {
                o = settleRefund(S, o, p.id, x.ok ? { reference: `re_${at}` } : { failure: 'refused' });
                expect(o.revision).toBe(before + 1);
              }
            } else if (x.kind === 'restock') {
              for (const a of owedRestocks(o)) {
                restock([...a.lines]);
                o = markRestocked(o, a.id);
              }
            } else {
              const c = cancel(S, o, CHARGED, { cancellationId: `adj_c${at}`, refundId: `adj_r${at}`, refund: x.refund, atUs: at });
              o = c.order;
              expect(o.revision).toBe(c.refund ? before : before + 1);
            }
          } catch (err) {
            if (!(err instanceof DomainError)) throw err;
            expect(['conflict', 'bad_request', 'not_found']).toContain(err.code);
          }
          at++;
          // Quantities within bounds, refunds within the charge.
          for (const p of lineProgress(LINES, o)) {
            expect(p.current).toBeGreaterThanOrEqual(0);
            expect(p.current).toBeLessThanOrEqual(p.ordered);
            expect(p.fulfilled).toBeLessThanOrEqual(p.current);
          }
          expect(refundedAmount(o)).toBeLessThanOrEqual(CHARGED);
          expect(o.adjustments.filter((a) => a.status === 'pending').length).toBeLessThanOrEqual(1);
        }
        // Every unit that left the order goes back to stock once, and nothing else does.
        for (const a of owedRestocks(o)) {
          restock([...a.lines]);
          o = markRestocked(o, a.id);
        }
        for (const line of LINES) {
          const left = o.adjustments
            .flatMap((a) => a.lines)
            .filter((u) => u.lineId === line.lineId)
            .reduce((n, u) => n + u.quantity, 0);
          expect(restocked.get(line.lineId) ?? 0).toBe(left);
          expect(left).toBeLessThanOrEqual(line.quantity);
        }
      }),
      { seed: 20261126, numRuns: 400 },
    );
  });
});
