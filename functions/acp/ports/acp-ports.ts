import type { CheckoutSession } from '../domain/checkout';
import type { PaymentHandler } from '../domain/payment-data';
import type { Product, ProductPatch } from '../domain/product';
import type { Micros } from '../../platform/domain/time';
import type { IdempotencyStore } from '../../platform/ports/platform-ports';
import type { PlatformDeps } from '../../platform/ports/platform-ports';

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

/** Checkout sessions, written with optimistic concurrency on `version`. */
export interface CheckoutStore {
  create(session: CheckoutSession): Promise<void>;
  get(id: string): Promise<CheckoutSession | undefined>;
  /** The app's completed sessions (its orders), newest first. */
  listCompletedByApp(appId: string, limit: number): Promise<CheckoutSession[]>;
  /** Writes `next` (version = expected + 1) if the stored version is still `expectedVersion`; false otherwise. */
  replace(next: CheckoutSession, expectedVersion: number): Promise<boolean>;
  /** Sessions whose complete still owes work (`completion` set), oldest claim first: the recovery job's queue. */
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

/** The payment handlers of a platform and the charge itself (the test handler locally; Stripe on AWS). */
export interface PaymentProvider {
  /** The handlers a session offers, each with the instrument and credential types its charges take (a complete with others is a 400). */
  handlers(): readonly PaymentHandler[];
  charge(input: ChargeRequest): Promise<PaymentOutcome>;
}

/** Every port of area C's checkout. */
export interface CheckoutPorts {
  readonly checkouts: CheckoutStore;
  readonly inventory: InventoryStore;
  readonly payments: PaymentProvider;
  readonly idempotency: IdempotencyStore;
}

/** Everything a use case of this area may pick its deps from. */
export type AcpDeps = PlatformDeps & AcpPorts & CheckoutPorts;
