import type { CheckoutSession } from '../domain/checkout';
import type { OrderEventCursor, OrderEventLogEntry } from '../domain/order-event';
import type { PaymentHandler } from '../domain/payment-data';
import type { Product, ProductPatch } from '../domain/product';
import type { Micros } from '../../kernel/domain/time';
import type { IdempotencyStore } from '../../kernel/app/kernel-ports';
import type { PlatformDeps } from '../../tenancy/app/tenancy-ports';
import type { App } from '../../tenancy/domain/app';

/** The products of the apps' catalogs (area C). */
export interface ProductStore {
  create(product: Product): Promise<void>;
  get(id: string): Promise<Product | undefined>;
  /** The app's products, oldest first; only active ones when asked. */
  listByApp(appId: string, opts: { readonly activeOnly: boolean }): Promise<Product[]>;
  /**
   * Sets the patched fields only (one UpdateItem, so a concurrent inventory reservation is never
   * overwritten by an edit of another field); undefined when the product does not exist.
   */
  update(id: string, patch: ProductPatch, atUs: Micros): Promise<Product | undefined>;
}

/** The ports of area C. */
export interface AcpPorts {
  readonly products: ProductStore;
}

/** A page of orders; `cursor` is there when more remain. */
export interface OrderPage {
  readonly sessions: CheckoutSession[];
  readonly cursor?: string;
}

/** Checkout sessions, written with optimistic concurrency on `version`. */
export interface CheckoutStore {
  create(session: CheckoutSession): Promise<void>;
  get(id: string): Promise<CheckoutSession | undefined>;
  /**
   * A page of the app's completed sessions (its orders), newest first, after the position `cursor`
   * names (a page's own `cursor`; one the store did not write is a 400).
   */
  listCompletedByApp(appId: string, limit: number, cursor?: string): Promise<OrderPage>;
  /**
   * Writes `next` (version = expected + 1) if the stored version is still `expectedVersion`; false
   * otherwise. One item write: an order change and its event (the session's outbox) land together.
   * `newOrder`: `next` holds the order of a sale, whose pointer (getByOrderId) is written before it.
   */
  replace(next: CheckoutSession, expectedVersion: number, opts?: { readonly newOrder?: boolean }): Promise<boolean>;
  /** The session that holds an order (its pointer is written with the sale). */
  getByOrderId(orderId: string): Promise<CheckoutSession | undefined>;
  /**
   * Sessions that owe work, oldest first: a complete not finished (`completion` set), an order with a
   * refund not settled with the payment provider, or events in its outbox. The recovery job's queue.
   */
  listOwingCompletion(limit: number): Promise<CheckoutSession[]>;
}

export type HoldResult = 'held' | 'unlimited' | 'out_of_stock';

/**
 * Stock of limited products. Units are taken by a named hold recorded on the product in the same
 * conditional write as the decrement, so stock never goes below zero under concurrent completes, and a
 * complete finished by recovery after a crash knows exactly which units it holds. Every call is
 * idempotent for one (holder, quantity).
 */
export interface InventoryStore {
  /** Takes `quantity` units for `holder` if that many are left ('held', also when it already holds them); unlimited products take nothing. */
  hold(productId: string, holder: string, quantity: number): Promise<HoldResult>;
  /** Gives the holder's units back (a decline, stock that ran out on another line, a failure before the charge). */
  release(productId: string, holder: string, quantity: number): Promise<void>;
  /** The holder's units are sold: forgets the hold and keeps the stock taken. */
  commit(productId: string, holder: string, quantity: number): Promise<void>;
  /** Gives units back to stock once per `key` (a return, a cancellation); an unlimited product takes nothing. */
  restock(productId: string, key: string, quantity: number): Promise<void>;
}

/**
 * `declined`: the buyer's payment was refused (the session stays payable); `failed`: the provider
 * refused the request for a reason of the merchant's (configuration, an invalid request), nothing was
 * charged. An unknown outcome (timeout, network, 5xx) throws: the charge is then retried later under
 * the same idempotency key.
 */
export type PaymentOutcome =
  | { readonly status: 'succeeded'; readonly reference: string }
  | { readonly status: 'declined'; readonly message: string }
  | { readonly status: 'failed'; readonly message: string };

export interface ChargeRequest {
  readonly sessionId: string;
  /** The same for every retry of one attempt, so the provider charges it at most once. */
  readonly idempotencyKey: string;
  readonly amount: number;
  readonly currency: string;
  readonly paymentData: Record<string, unknown>;
}

export interface RefundRequest {
  readonly sessionId: string;
  readonly orderId: string;
  /** The charge's reference (the order's `paymentReference`). */
  readonly chargeReference: string;
  /** The same for every retry of one refund (the adjustment), so the provider refunds it at most once. */
  readonly idempotencyKey: string;
  readonly amount: number;
  readonly currency: string;
}

/**
 * `failed`: the provider refused the refund for good (nothing was refunded). An unknown outcome
 * (timeout, network, 5xx) throws: the refund is retried later under the same idempotency key.
 */
export type RefundOutcome = { readonly status: 'succeeded'; readonly reference: string } | { readonly status: 'failed'; readonly message: string };

/** The payment handlers of a platform, the charge and its refunds (the test handler locally; Stripe on AWS). */
export interface PaymentProvider {
  /** The handlers a session offers, each with the instrument and credential types its charges take (a complete with others is a 400). */
  handlers(): readonly PaymentHandler[];
  charge(input: ChargeRequest): Promise<PaymentOutcome>;
  refund(input: RefundRequest): Promise<RefundOutcome>;
}

/** The agent platform's receiver of an app's order events, and the secret its events are signed with (sealed at rest). */
export interface OrderWebhook {
  readonly appId: string;
  readonly orgId: string;
  readonly url: string;
  readonly sealedSecret: string;
  readonly createdAtUs: Micros;
  readonly updatedAtUs: Micros;
}

export interface OrderWebhookStore {
  get(appId: string): Promise<OrderWebhook | undefined>;
  /** Creates or replaces the app's receiver. */
  put(webhook: OrderWebhook): Promise<void>;
  remove(appId: string): Promise<void>;
}

/** Where each order's event delivery stands (one item per order, beside its session), and its delivery log. */
export interface OrderEventLog {
  cursor(sessionId: string): Promise<OrderEventCursor>;
  /**
   * Claims the attempt of `revision` (the event after the cursor): true when this worker may send it
   * (no other claim, or one made before `staleBeforeUs` by a worker that died).
   */
  claim(sessionId: string, revision: number, nowUs: Micros, staleBeforeUs: Micros): Promise<boolean>;
  /**
   * Records a finished attempt and releases the claim: `done` (delivered or dropped) moves the cursor
   * past the event; otherwise the next attempt waits until `notBeforeUs`.
   */
  finish(sessionId: string, entry: OrderEventLogEntry, done: boolean, notBeforeUs: Micros): Promise<void>;
  /** The order's finished attempts, newest first. */
  list(sessionId: string, limit: number): Promise<OrderEventLogEntry[]>;
}

/** Messages of the order-events queue: work through one session's pending events, in order. */
export interface OrderEventMessage {
  readonly type: 'order-events';
  readonly sessionId: string;
}

export interface OrderEventQueue {
  send(messages: readonly OrderEventMessage[], delaySeconds?: number): Promise<void>;
}

/** What one checkout request read together. */
export interface CheckoutSnapshot {
  /** The app (undefined: none is stored). */
  readonly app: App | undefined;
  /** The session asked for, null when none is stored; undefined when none was asked for. */
  readonly session: CheckoutSession | null | undefined;
  /** Every product asked for, by id (undefined: none is stored). */
  readonly products: ReadonlyMap<string, Product | undefined>;
  /** The app's order-event receiver when asked for, null when it has none; undefined when not asked for. */
  readonly orderWebhook: OrderWebhook | null | undefined;
}

/**
 * The independent items a checkout request decides on (its app, its session, the products of its
 * lines, the app's order-event receiver), read together in one round trip, strongly consistent. A read
 * that decides a conditional write stays one: the write names the version it read.
 */
export interface CheckoutReader {
  read(input: {
    readonly appId: string;
    readonly sessionId?: string;
    readonly productIds?: readonly string[];
    readonly orderWebhook?: boolean;
  }): Promise<CheckoutSnapshot>;
}

/** Every port of area C's checkout. */
export interface CheckoutPorts {
  readonly checkouts: CheckoutStore;
  readonly checkoutReader: CheckoutReader;
  readonly inventory: InventoryStore;
  readonly payments: PaymentProvider;
  readonly idempotency: IdempotencyStore;
  /** Each app's order-event receiver (read when an order changes: no receiver, no event). */
  readonly orderWebhooks: OrderWebhookStore;
  /** Where a change with a new event asks for its delivery (the recovery job asks again for any left). */
  readonly orderEventQueue: OrderEventQueue;
}

/** Everything a use case of this area may pick its deps from. */
export type AcpDeps = PlatformDeps & AcpPorts & CheckoutPorts;
