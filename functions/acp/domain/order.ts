/**
 * The order a completed checkout session becomes, and its life after the sale (ACP 2026-04-17 `Order`):
 * fulfillments (shipped or delivered, with tracking), refunds (in whole or in part, with the units that
 * came back), and cancellation (the units not yet sent leave the order and go back to stock; what was
 * not refunded yet is refunded). Pure: each change answers the next order and what it asks of the
 * outside (stock to give back, a refund to send), and the caller writes them.
 *
 * Every change raises `revision`, the order's event sequence: revision 1 is `order_create`, every later
 * one an `order_update` carrying the whole Order as it stood after that change.
 */
import { DomainError } from '../../kernel/domain/errors';
import { microsToIso, type Micros } from '../../kernel/domain/time';
import type { CheckoutLine, CheckoutSession } from './checkout';

/** The order-level statuses this platform sets (ACP defines these and more; clients accept unknown ones). */
export type OrderStatus = 'confirmed' | 'processing' | 'shipped' | 'completed' | 'canceled';

export type FulfillmentType = 'shipping' | 'digital';
export type FulfillmentStatus = 'shipped' | 'delivered';

/** Units of one line of the order, in a fulfillment or an adjustment. */
export interface LineUnits {
  readonly lineId: string;
  readonly quantity: number;
}

export interface OrderFulfillment {
  readonly id: string;
  readonly type: FulfillmentType;
  readonly status: FulfillmentStatus;
  readonly lines: readonly LineUnits[];
  readonly carrier: string | null;
  readonly trackingNumber: string | null;
  readonly trackingUrl: string | null;
  readonly createdAtUs: Micros;
  /** When it was delivered, if it was. */
  readonly deliveredAtUs: Micros | null;
}

/**
 * A refund is `pending` from the moment it is recorded until the payment provider has it (written
 * ahead, so a crash in between is finished by recovery under the same idempotency key), then
 * `completed`, or `failed` when the provider refused it. A cancellation records the units it removed.
 */
export interface OrderAdjustment {
  readonly id: string;
  readonly type: 'refund' | 'cancellation';
  readonly status: 'pending' | 'completed' | 'failed';
  readonly lines: readonly LineUnits[];
  /** Minor units credited to the buyer (a refund); 0 for a cancellation. */
  readonly amount: number;
  readonly reason: string | null;
  readonly occurredAtUs: Micros;
  /** The provider's reference for the refund, once it has one. */
  readonly paymentReference: string | null;
  /** Why the provider refused it (a failed refund). */
  readonly failure: string | null;
  /** False while units this adjustment took off the order are still to go back to stock (written ahead, like a refund). */
  readonly restocked: boolean;
}

export interface CheckoutOrder {
  readonly id: string;
  readonly createdAtUs: Micros;
  /** The payment handler's reference for the charge. */
  readonly paymentReference: string;
  /** Absent on orders placed before the lifecycle existed: read through `orderState`. */
  readonly status?: OrderStatus;
  readonly fulfillments?: readonly OrderFulfillment[];
  readonly adjustments?: readonly OrderAdjustment[];
  /** The order's event sequence: 1 at creation, +1 for every change. */
  readonly revision?: number;
  /** Where the buyer sees the order, fixed at the sale (older orders: derived from the request's base URL). */
  readonly permalinkUrl?: string;
}

/** The order with every lifecycle field present. */
export interface OrderState extends Required<Omit<CheckoutOrder, 'permalinkUrl'>> {
  readonly permalinkUrl?: string;
}

export function orderState(o: CheckoutOrder): OrderState {
  return { ...o, status: o.status ?? 'confirmed', fulfillments: o.fulfillments ?? [], adjustments: o.adjustments ?? [], revision: o.revision ?? 1 };
}

/** The permalink of a session's order: the session under the app's ACP API. */
export const orderPermalink = (baseUrl: string, appId: string, sessionId: string) =>
  `${baseUrl.replace(/\/+$/, '')}/acp/${appId}/checkout_sessions/${sessionId}`;

/** The order a sale creates: confirmed, revision 1 (its `order_create` event). */
export function newOrder(input: { id: string; createdAtUs: Micros; paymentReference: string; permalinkUrl: string }): OrderState {
  return { ...input, status: 'confirmed', fulfillments: [], adjustments: [], revision: 1 };
}

export const MAX_FULFILLMENTS = 100;
export const MAX_ADJUSTMENTS = 100;

/** Per line: units ordered, still on the order (ordered less removed and returned), and fulfilled. */
export interface LineProgress {
  readonly line: CheckoutLine;
  readonly ordered: number;
  readonly current: number;
  readonly fulfilled: number;
}

const sumFor = (lineId: string, groups: readonly { readonly lines: readonly LineUnits[] }[]) =>
  groups.reduce((n, g) => n + g.lines.filter((u) => u.lineId === lineId).reduce((m, u) => m + u.quantity, 0), 0);

/**
 * Units that left the order: removed by a cancellation, or returned with a refund. Returned units came
 * back whatever the payment provider answers, so a failed refund leaves them off the order too (the
 * merchant refunds the money again).
 */
const leftOrder = (o: OrderState, lineId: string) => sumFor(lineId, o.adjustments);

export function lineProgress(lines: readonly CheckoutLine[], o: OrderState): LineProgress[] {
  return lines.map((line) => {
    const removed = leftOrder(o, line.lineId);
    const fulfilled = sumFor(line.lineId, o.fulfillments);
    return {
      line,
      ordered: line.quantity,
      current: Math.max(0, line.quantity - removed),
      fulfilled: Math.min(fulfilled, Math.max(0, line.quantity - removed)),
    };
  });
}

/** Fulfilled units that were returned with a refund (they left the order after they were sent). */
function returnedAfterFulfilment(o: OrderState, lineId: string): number {
  return sumFor(
    lineId,
    o.adjustments.filter((a) => a.type === 'refund'),
  );
}

/** Units of a line not sent yet and still on the order: what a fulfillment may send, and what a cancellation removes. */
function unsent(lines: readonly CheckoutLine[], o: OrderState, lineId: string): number {
  const line = lines.find((l) => l.lineId === lineId)!;
  const sent = sumFor(lineId, o.fulfillments);
  const cancelled = sumFor(
    lineId,
    o.adjustments.filter((a) => a.type === 'cancellation'),
  );
  // Returned units were sent first: they count against what was sent, not against what is left to send.
  return Math.max(0, line.quantity - cancelled - Math.max(sent, returnedAfterFulfilment(o, lineId)));
}

/** Minor units refunded so far, or on their way (pending). */
export function refundedAmount(o: OrderState): number {
  return o.adjustments.filter((a) => a.type === 'refund' && a.status !== 'failed').reduce((n, a) => n + a.amount, 0);
}

/** The order status its fulfillments imply (a canceled order stays canceled). */
function derivedStatus(lines: readonly CheckoutLine[], o: OrderState): OrderStatus {
  if (o.status === 'canceled') return 'canceled';
  if (o.fulfillments.length === 0) return 'confirmed';
  if (lineProgress(lines, o).some((p) => p.fulfilled < p.current)) return 'processing';
  return o.fulfillments.every((f) => f.status === 'delivered') ? 'completed' : 'shipped';
}

const conflict = (message: string) => new DomainError('conflict', message, 'order_conflict');
const invalidInput = (message: string) => new DomainError('bad_request', message, 'invalid');

function checkUnits(lines: readonly CheckoutLine[], units: readonly LineUnits[], what: string): void {
  const seen = new Set<string>();
  for (const u of units) {
    if (!lines.some((l) => l.lineId === u.lineId)) throw invalidInput(`${what}: the order has no line ${u.lineId}`);
    if (seen.has(u.lineId)) throw invalidInput(`${what}: line ${u.lineId} is named twice`);
    seen.add(u.lineId);
    if (!Number.isInteger(u.quantity) || u.quantity < 1) throw invalidInput(`${what}: the quantity of line ${u.lineId} must be a whole number of at least 1`);
  }
}

export interface FulfillInput {
  readonly id: string;
  readonly type: FulfillmentType;
  /** A digital fulfillment is delivered when it is recorded, whatever this says. */
  readonly status: FulfillmentStatus;
  /** The units sent; every unit not sent yet when absent. */
  readonly lines?: readonly LineUnits[];
  readonly carrier?: string;
  readonly trackingNumber?: string;
  readonly trackingUrl?: string;
  readonly atUs: Micros;
}

/** Records a fulfillment of units still to send; the order becomes processing (part sent), shipped, or completed (all delivered). */
export function fulfill(s: Pick<CheckoutSession, 'lines'>, order: CheckoutOrder, input: FulfillInput): OrderState {
  const o = orderState(order);
  if (o.status === 'canceled') throw conflict('The order is canceled: nothing more can be fulfilled');
  if (o.fulfillments.length >= MAX_FULFILLMENTS) throw conflict(`The order has ${MAX_FULFILLMENTS} fulfillments, the most it can hold`);
  const units = input.lines ?? s.lines.map((l) => ({ lineId: l.lineId, quantity: unsent(s.lines, o, l.lineId) })).filter((u) => u.quantity > 0);
  if (units.length === 0) throw conflict('Every unit of the order has been fulfilled');
  checkUnits(s.lines, units, 'lines');
  for (const u of units) {
    const left = unsent(s.lines, o, u.lineId);
    if (u.quantity > left) throw conflict(`Line ${u.lineId} has ${left} unit(s) left to fulfill, not ${u.quantity}`);
  }
  if (input.type === 'digital' && (input.carrier || input.trackingNumber || input.trackingUrl))
    throw invalidInput('A digital fulfillment has no carrier or tracking');
  const status: FulfillmentStatus = input.type === 'digital' ? 'delivered' : input.status;
  const fulfillment: OrderFulfillment = {
    id: input.id,
    type: input.type,
    status,
    lines: units,
    carrier: input.carrier ?? null,
    trackingNumber: input.trackingNumber ?? null,
    trackingUrl: input.trackingUrl ?? null,
    createdAtUs: input.atUs,
    deliveredAtUs: status === 'delivered' ? input.atUs : null,
  };
  const next: OrderState = { ...o, fulfillments: [...o.fulfillments, fulfillment], revision: o.revision + 1 };
  return { ...next, status: derivedStatus(s.lines, next) };
}

/** Marks a shipped fulfillment delivered. */
export function markDelivered(s: Pick<CheckoutSession, 'lines'>, order: CheckoutOrder, fulfillmentId: string, atUs: Micros): OrderState {
  const o = orderState(order);
  const f = o.fulfillments.find((x) => x.id === fulfillmentId);
  if (!f) throw new DomainError('not_found', `The order has no fulfillment ${fulfillmentId}`, 'not_found');
  if (f.status === 'delivered') throw conflict(`Fulfillment ${fulfillmentId} is already delivered`);
  const next: OrderState = {
    ...o,
    fulfillments: o.fulfillments.map((x) => (x.id === fulfillmentId ? { ...x, status: 'delivered' as const, deliveredAtUs: atUs } : x)),
    revision: o.revision + 1,
  };
  return { ...next, status: derivedStatus(s.lines, next) };
}

export interface RefundInput {
  readonly id: string;
  /** Minor units; at most what was charged and not refunded yet. */
  readonly amount: number;
  /** Units that came back (they return to stock); none when absent. */
  readonly lines?: readonly LineUnits[];
  readonly reason?: string;
  readonly atUs: Micros;
}

/**
 * Records a refund as pending (written before the provider is asked). Returned units must have been
 * sent and still be on the order; they leave it and go back to stock (`restock`). A pending refund
 * raises no revision: the settlement does, so the change is one `order_update`, sent once the
 * provider has answered.
 */
export function refund(
  s: Pick<CheckoutSession, 'lines'>,
  order: CheckoutOrder,
  charged: number,
  input: RefundInput,
): { order: OrderState; restock: LineUnits[] } {
  const o = orderState(order);
  if (o.adjustments.length >= MAX_ADJUSTMENTS) throw conflict(`The order has ${MAX_ADJUSTMENTS} adjustments, the most it can hold`);
  if (o.adjustments.some((a) => a.status === 'pending'))
    throw conflict('A refund of this order is still on its way to the payment provider: try again shortly');
  const left = charged - refundedAmount(o);
  if (!Number.isInteger(input.amount) || input.amount < 1) throw invalidInput('amount must be a whole number of minor units, at least 1');
  if (input.amount > left) throw conflict(`At most ${left} can be refunded (charged ${charged}, refunded ${charged - left})`);
  const units = input.lines ?? [];
  checkUnits(s.lines, units, 'lines');
  const progress = lineProgress(s.lines, o);
  for (const u of units) {
    const p = progress.find((x) => x.line.lineId === u.lineId)!;
    if (u.quantity > p.fulfilled) throw conflict(`Line ${u.lineId} has ${p.fulfilled} fulfilled unit(s) on the order that can come back, not ${u.quantity}`);
  }
  const adjustment: OrderAdjustment = {
    id: input.id,
    type: 'refund',
    status: 'pending',
    lines: units,
    amount: input.amount,
    reason: input.reason ?? null,
    occurredAtUs: input.atUs,
    paymentReference: null,
    failure: null,
    restocked: units.length === 0,
  };
  const next: OrderState = { ...o, adjustments: [...o.adjustments, adjustment] };
  return { order: { ...next, status: derivedStatus(s.lines, next) }, restock: [...units] };
}

/** The provider's answer to a pending refund: completed with its reference, or failed with the reason. It raises the revision: the change's `order_update`. */
export function settleRefund(
  s: Pick<CheckoutSession, 'lines'>,
  order: CheckoutOrder,
  adjustmentId: string,
  outcome: { reference: string } | { failure: string },
): OrderState {
  const o = orderState(order);
  const a = o.adjustments.find((x) => x.id === adjustmentId);
  if (a?.status !== 'pending') return o;
  const settled: OrderAdjustment =
    'reference' in outcome ? { ...a, status: 'completed', paymentReference: outcome.reference } : { ...a, status: 'failed', failure: outcome.failure };
  const next: OrderState = { ...o, adjustments: o.adjustments.map((x) => (x.id === adjustmentId ? settled : x)), revision: o.revision + 1 };
  return { ...next, status: derivedStatus(s.lines, next) };
}

export interface CancelInput {
  readonly cancellationId: string;
  /** The refund of what was not refunded yet; none when `refund` is false or nothing is left. */
  readonly refundId: string;
  readonly refund: boolean;
  readonly reason?: string;
  readonly atUs: Micros;
}

/**
 * Cancels the order: the units not sent yet leave it (a `cancellation` adjustment) and go back to stock;
 * sent units stay (they come back only with a refund naming them). Unless `refund` is false, what was
 * charged and not refunded yet is refunded (a pending refund, like `refund`: the revision is then
 * raised by its settlement, so a cancellation is one `order_update` either way).
 */
export function cancel(
  s: Pick<CheckoutSession, 'lines'>,
  order: CheckoutOrder,
  charged: number,
  input: CancelInput,
): { order: OrderState; restock: LineUnits[]; refund: OrderAdjustment | null } {
  const o = orderState(order);
  if (o.status === 'canceled') throw conflict('The order is already canceled');
  if (o.adjustments.some((a) => a.status === 'pending'))
    throw conflict('A refund of this order is still on its way to the payment provider: try again shortly');
  if (o.adjustments.length + 2 > MAX_ADJUSTMENTS) throw conflict(`The order has ${MAX_ADJUSTMENTS} adjustments, the most it can hold`);
  const removed = s.lines.map((l) => ({ lineId: l.lineId, quantity: unsent(s.lines, o, l.lineId) })).filter((u) => u.quantity > 0);
  const adjustments: OrderAdjustment[] = [];
  if (removed.length)
    adjustments.push({
      id: input.cancellationId,
      type: 'cancellation',
      status: 'completed',
      lines: removed,
      amount: 0,
      reason: input.reason ?? null,
      occurredAtUs: input.atUs,
      paymentReference: null,
      failure: null,
      restocked: false,
    });
  const left = charged - refundedAmount(o);
  const refundAdjustment: OrderAdjustment | null =
    input.refund && left > 0
      ? {
          id: input.refundId,
          type: 'refund',
          status: 'pending',
          lines: [],
          amount: left,
          reason: input.reason ?? 'Order canceled',
          occurredAtUs: input.atUs,
          paymentReference: null,
          failure: null,
          restocked: true,
        }
      : null;
  if (refundAdjustment) adjustments.push(refundAdjustment);
  return {
    order: { ...o, status: 'canceled', adjustments: [...o.adjustments, ...adjustments], revision: refundAdjustment ? o.revision : o.revision + 1 },
    restock: removed,
    refund: refundAdjustment,
  };
}

/** Adjustments whose units are still to go back to stock. */
export function owedRestocks(order: CheckoutOrder): OrderAdjustment[] {
  return orderState(order).adjustments.filter((a) => !(a.restocked ?? true) && a.lines.length > 0);
}

/** Records that an adjustment's units are back in stock (no event: the change's event is the adjustment itself). */
export function markRestocked(order: CheckoutOrder, adjustmentId: string): OrderState {
  const o = orderState(order);
  return { ...o, adjustments: o.adjustments.map((a) => (a.id === adjustmentId ? { ...a, restocked: true } : a)) };
}

/** The refund an order still owes the provider (written ahead, not settled yet), if any. */
export function pendingRefund(order: CheckoutOrder): OrderAdjustment | undefined {
  return orderState(order).adjustments.find((a) => a.type === 'refund' && a.status === 'pending');
}

const LINE_STATUS = (p: LineProgress) => (p.current === 0 ? 'removed' : p.fulfilled === p.current ? 'fulfilled' : p.fulfilled > 0 ? 'partial' : 'processing');

const unitsView = (units: readonly LineUnits[]) => units.map((u) => ({ id: u.lineId, quantity: u.quantity }));

/**
 * The ACP `Order` of a completed session: lines with their three quantities, fulfillments, adjustments
 * and totals (`total` is what was charged; `amount_refunded` what was refunded so far).
 */
export function orderView(
  s: Pick<CheckoutSession, 'id' | 'appId' | 'lines' | 'currency'>,
  order: CheckoutOrder,
  totals: readonly { type: string; display_text: string; amount: number }[],
  baseUrl: string,
) {
  const o = orderState(order);
  const refunded = o.adjustments.filter((a) => a.type === 'refund' && a.status === 'completed').reduce((n, a) => n + a.amount, 0);
  return {
    type: 'order' as const,
    id: o.id,
    checkout_session_id: s.id,
    permalink_url: o.permalinkUrl ?? orderPermalink(baseUrl, s.appId, s.id),
    status: o.status,
    line_items: lineProgress(s.lines, o).map((p) => ({
      id: p.line.lineId,
      title: p.line.title,
      product_id: p.line.productId,
      quantity: { ordered: p.ordered, current: p.current, fulfilled: p.fulfilled },
      unit_price: p.line.unitAmount,
      subtotal: p.line.unitAmount * p.line.quantity,
      status: LINE_STATUS(p),
    })),
    fulfillments: o.fulfillments.map((f) => ({
      id: f.id,
      type: f.type,
      status: f.status,
      line_items: unitsView(f.lines),
      ...(f.carrier ? { carrier: f.carrier } : {}),
      ...(f.trackingNumber ? { tracking_number: f.trackingNumber } : {}),
      ...(f.trackingUrl ? { tracking_url: f.trackingUrl } : {}),
      // A shipment is shipped, then maybe delivered; a digital delivery is delivered at once.
      events: [
        ...(f.type === 'shipping' ? [{ id: `${f.id}_shipped`, type: 'shipped', occurred_at: microsToIso(f.createdAtUs) }] : []),
        ...(f.deliveredAtUs !== null ? [{ id: `${f.id}_delivered`, type: 'delivered', occurred_at: microsToIso(f.deliveredAtUs) }] : []),
      ],
    })),
    adjustments: o.adjustments.map((a) => ({
      id: a.id,
      type: a.type,
      occurred_at: microsToIso(a.occurredAtUs),
      status: a.status,
      ...(a.lines.length ? { line_items: unitsView(a.lines) } : {}),
      ...(a.type === 'refund' ? { amount: a.amount, currency: s.currency } : {}),
      ...(a.reason ? { description: a.reason } : {}),
    })),
    totals: [...totals, ...(refunded > 0 ? [{ type: 'amount_refunded', display_text: 'Refunded', amount: refunded }] : [])],
  };
}
