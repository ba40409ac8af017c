/**
 * The life of an order after the sale, for the merchant (admin API and CLI): fulfill it (with tracking
 * for shipped goods), mark a shipment delivered, refund it in whole or in part (with the units that came
 * back), cancel it. Each change is one write of the order's session with its event in the session's
 * outbox (order-events.ts); what a change asks of the outside runs after that write, each step
 * idempotent and recorded, so a crash anywhere is finished by the recovery job:
 *
 *   write the change (a refund `pending`, returned units not `restocked`)
 *   → give the units back to stock (once per adjustment)
 *   → refund through the payment provider (the adjustment's id is the idempotency key)
 *   → write the outcome (the refund `completed` or `failed`: the change's one `order_update`).
 */
import { liveApp, type AppScope } from './manage-products';
import { appendOrderEvent, requestOrderDelivery } from './order-events';
import { totalsOf, type CheckoutSession } from '../domain/checkout';
import {
  cancel,
  fulfill,
  markDelivered,
  markRestocked,
  orderState,
  owedRestocks,
  pendingRefund,
  refund,
  settleRefund,
  type FulfillInput,
  type LineUnits,
  type OrderState,
} from '../domain/order';
import { adjustmentId, fulfillmentId } from '../domain/order-ids';
import { DomainError } from '../../kernel/domain/errors';
import type { AcpDeps, CheckoutPorts } from './acp-ports';

/** What an order change needs: no catalog (the order keeps its lines as sold). */
type OrderWriteDeps = Pick<AcpDeps, 'ids' | 'clock' | 'settings'> & CheckoutPorts;
type OrderDeps = OrderWriteDeps & Pick<AcpDeps, 'apps'>;

/** Optimistic writes retry a bounded number of times; an order this contended answers 409. */
const MAX_ATTEMPTS = 5;

const notFound = () => new DomainError('not_found', 'Order not found', 'not_found');
const contended = () => new DomainError('conflict', 'The order changed while this request ran: retry', 'order_conflict');

/** An order of an app (and of the org, on a console call). */
type OrderRef = AppScope & { readonly orderId: string };

/** The app's order (its session); another app's or an unknown id is 404. */
export async function getOrder(deps: OrderDeps, input: OrderRef): Promise<CheckoutSession> {
  const app = await liveApp(deps, input.appId, input.orgId);
  const s = await deps.checkouts.getByOrderId(input.orderId);
  if (!s?.order || s.appId !== app.id) throw notFound();
  return s;
}

/** The amount the order's charge took. */
const chargedOf = (s: CheckoutSession) => totalsOf(s).find((t) => t.type === 'total')!.amount;

/**
 * Reads the order's session, applies `change` and writes it (with its event when the revision rose),
 * again on a version race. Answers the written session.
 */
async function changeOrder(deps: OrderDeps, input: OrderRef, change: (s: CheckoutSession) => OrderState): Promise<CheckoutSession> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const s = await getOrder(deps, input);
    const written = await writeOrder(deps, s, change(s));
    if (written) return written;
  }
  throw contended();
}

/** Writes the session with `order`, appending the order's event when its revision rose; undefined on a version race. */
export async function writeOrder(deps: OrderWriteDeps, s: CheckoutSession, order: OrderState): Promise<CheckoutSession | undefined> {
  const now = deps.clock.nowUs();
  const next = await appendOrderEvent(deps, s, { ...s, order, updatedAtUs: now });
  if (!(await deps.checkouts.replace(next, s.version))) return undefined;
  if ((next.orderEvents?.length ?? 0) > (s.orderEvents?.length ?? 0)) await requestOrderDelivery(deps, s.id);
  return { ...next, version: s.version + 1 };
}

/** A fulfillment as the merchant asks for it (the platform names it and stamps its time). */
export type FulfillRequest = Omit<FulfillInput, 'id' | 'atUs'>;

export async function fulfillOrder(deps: OrderDeps, input: OrderRef & { request: FulfillRequest }): Promise<CheckoutSession> {
  const id = fulfillmentId(deps.ids.uuid());
  return changeOrder(deps, input, (s) => fulfill(s, s.order!, { ...input.request, id, atUs: deps.clock.nowUs() }));
}

export async function deliverFulfillment(deps: OrderDeps, input: OrderRef & { fulfillmentId: string }): Promise<CheckoutSession> {
  return changeOrder(deps, input, (s) => markDelivered(s, s.order!, input.fulfillmentId, deps.clock.nowUs()));
}

export async function refundOrder(
  deps: OrderDeps,
  input: OrderRef & { amount: number; lines?: readonly LineUnits[]; reason?: string },
): Promise<CheckoutSession> {
  const id = adjustmentId(deps.ids.uuid());
  const written = await changeOrder(
    deps,
    input,
    (s) => refund(s, s.order!, chargedOf(s), { id, amount: input.amount, lines: input.lines, reason: input.reason, atUs: deps.clock.nowUs() }).order,
  );
  return settleOrder(deps, written);
}

export async function cancelOrder(deps: OrderDeps, input: OrderRef & { refund: boolean; reason?: string }): Promise<CheckoutSession> {
  const cancellationId = adjustmentId(deps.ids.uuid());
  const refundId = adjustmentId(deps.ids.uuid());
  const written = await changeOrder(
    deps,
    input,
    (s) => cancel(s, s.order!, chargedOf(s), { cancellationId, refundId, refund: input.refund, reason: input.reason, atUs: deps.clock.nowUs() }).order,
  );
  return settleOrder(deps, written);
}

/**
 * Finishes what an order's last change owes the outside: units back to stock, then a pending refund
 * sent to the payment provider and its outcome written. Every step is idempotent, so a request and the
 * recovery job may both run it. An unknown refund outcome (the provider did not answer) leaves the
 * refund pending, for the next run.
 */
export async function settleOrder(deps: OrderWriteDeps, written: CheckoutSession): Promise<CheckoutSession> {
  let s = written;
  for (let attempt = 0; attempt < MAX_ATTEMPTS && s.order; attempt++) {
    const owed = owedRestocks(s.order);
    const pending = pendingRefund(s.order);
    if (owed.length === 0 && !pending) return s;
    let order = orderState(s.order);
    for (const a of owed) {
      for (const u of a.lines) {
        const line = s.lines.find((l) => l.lineId === u.lineId);
        if (line) await deps.inventory.restock(line.productId, `${a.id}:${u.lineId}`, u.quantity);
      }
      order = markRestocked(order, a.id);
    }
    if (pending) {
      let outcome: Awaited<ReturnType<typeof deps.payments.refund>>;
      try {
        outcome = await deps.payments.refund({
          sessionId: s.id,
          orderId: order.id,
          chargeReference: order.paymentReference,
          idempotencyKey: `acp-refund-${pending.id}`,
          amount: pending.amount,
          currency: s.currency,
        });
      } catch {
        // Refunded or not, nobody knows yet: the refund stays pending, and recovery asks again under the same key.
        if (owed.length === 0) return s;
        return (await writeOrder(deps, s, order)) ?? s;
      }
      order = settleRefund(s, order, pending.id, outcome.status === 'succeeded' ? { reference: outcome.reference } : { failure: outcome.message });
    }
    const next = await writeOrder(deps, s, order);
    if (next) return next;
    const reread = await deps.checkouts.get(s.id);
    if (!reread) return s;
    s = reread;
  }
  return s;
}
