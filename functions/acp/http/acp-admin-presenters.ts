/** Wire shapes of area C's admin resources (camelCase, like the rest of the admin API): products, orders, order events and receivers. */
import { microsToIso } from '../../kernel/domain/time';
import { totalsOf, type CheckoutSession } from '../domain/checkout';
import { orderState, orderView, refundedAmount } from '../domain/order';
import type { OrderEventCursor, OrderEventLogEntry } from '../domain/order-event';
import type { OrderWebhook } from '../app/acp-ports';
import type { Product } from '../domain/product';

export function adminProduct(p: Product) {
  return {
    id: p.id,
    appId: p.appId,
    title: p.title,
    description: p.description,
    price: p.priceMinor,
    currency: p.currency,
    inventory: p.inventory,
    active: p.active,
    imageUrl: p.imageUrl,
    createdAt: microsToIso(p.createdAtUs),
    updatedAt: microsToIso(p.updatedAtUs),
  };
}

/**
 * An order: the completed checkout session it came from, its lines, the tax and the total charged
 * (with the tax) in minor units, and the buyer's `order_notes` (ACP's session shape has no field for
 * them, so the merchant reads them here).
 */
export function adminOrder(s: CheckoutSession) {
  const totals = totalsOf(s);
  return {
    id: s.order!.id,
    checkoutSessionId: s.id,
    appId: s.appId,
    currency: s.currency,
    status: orderState(s.order!).status,
    taxRateBps: s.taxRateBps ?? 0,
    tax: totals.find((t) => t.type === 'tax')!.amount,
    total: totals.find((t) => t.type === 'total')!.amount,
    refunded: refundedAmount(orderState(s.order!)),
    lines: s.lines.map((l) => ({ lineId: l.lineId, productId: l.productId, title: l.title, quantity: l.quantity, unitAmount: l.unitAmount })),
    buyerEmail: s.buyerEmail,
    orderNotes: s.details?.orderNotes ?? null,
    paymentReference: s.order!.paymentReference,
    createdAt: microsToIso(s.order!.createdAtUs),
  };
}

/** One order with its ACP `Order` (what the agent platform's events carry) and how many events wait to be delivered. */
export function adminOrderDetail(s: CheckoutSession, baseUrl: string) {
  return {
    ...adminOrder(s),
    revision: orderState(s.order!).revision,
    pendingEvents: s.orderEvents?.length ?? 0,
    acpOrder: orderView(s, s.order!, totalsOf(s), baseUrl),
  };
}

/** An order's events: those waiting in its outbox (after the delivery cursor), and its delivery attempts, newest first. */
export function adminOrderEvents(s: CheckoutSession, cursor: OrderEventCursor, attempts: readonly OrderEventLogEntry[]) {
  return {
    orderId: s.order!.id,
    deliveredThrough: cursor.deliveredThrough,
    pending: (s.orderEvents ?? [])
      .filter((e) => e.revision > cursor.deliveredThrough)
      .map((e) => ({ revision: e.revision, type: e.type, createdAt: microsToIso(e.createdAtUs) })),
    attempts: attempts.map((a) => ({
      revision: a.revision,
      type: a.type,
      attempt: a.attempt,
      attemptedAt: microsToIso(a.attemptedAtUs),
      latencyMs: a.latencyMs,
      outcome: a.outcome,
      ...(a.httpStatus !== undefined ? { httpStatus: a.httpStatus } : {}),
      ...(a.error !== undefined ? { error: a.error } : {}),
    })),
  };
}

/** An app's order-event receiver (its secret is never shown after it was set). */
export function adminOrderWebhook(w: OrderWebhook) {
  return { appId: w.appId, url: w.url, createdAt: microsToIso(w.createdAtUs), updatedAt: microsToIso(w.updatedAtUs) };
}

/** What the audit log keeps of an order change: the order, and where its status and refunds stand after it. */
export function orderChangeAudit(s: CheckoutSession) {
  const order = orderState(s.order!);
  return { resource: { type: 'order', id: order.id }, after: { status: order.status, refunded: refundedAmount(order) } };
}
