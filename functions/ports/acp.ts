import type { CheckoutSession, PaymentHandlerView } from '../domain/acp/checkout';
import type { Product, ProductPatch } from '../domain/acp/product';
import type { Micros } from '../domain/time';

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
}

/** Stock of limited products, moved atomically so concurrent completes never oversell. */
export interface InventoryStore {
  /** Takes `quantity` units if that many are left; false (nothing taken) otherwise. Unlimited products always succeed. */
  reserve(productId: string, quantity: number): Promise<boolean>;
  /** Gives back units taken by `reserve` (a declined payment, a lost race on the session). */
  release(productId: string, quantity: number): Promise<void>;
}

export type PaymentOutcome = { readonly status: 'succeeded'; readonly reference: string } | { readonly status: 'declined'; readonly message: string };

/** The payment handlers of a platform and the charge itself (the test handler locally; Stripe on AWS). */
export interface PaymentGateway {
  handlers(): readonly PaymentHandlerView[];
  charge(input: { readonly sessionId: string; readonly amount: number; readonly currency: string; readonly paymentData: Record<string, unknown> }): Promise<PaymentOutcome>;
}

export type IdempotencyBegin =
  | { readonly state: 'new' }
  | { readonly state: 'replay'; readonly status: number; readonly body: unknown }
  | { readonly state: 'conflict' }
  | { readonly state: 'in_flight' };

/** Idempotency keys of area C POSTs, scoped to (API key, route, key), kept 24 hours. */
export interface IdempotencyStore {
  begin(scope: string, fingerprint: string, nowMs: number): Promise<IdempotencyBegin>;
  /** Stores the answer for replays (never a 5xx: the key is then forgotten, so a retry is a new request). */
  finish(scope: string, response: { readonly status: number; readonly body: unknown } | undefined): Promise<void>;
}

/** Every port of area C's checkout. */
export interface CheckoutPorts {
  readonly checkouts: CheckoutStore;
  readonly inventory: InventoryStore;
  readonly payments: PaymentGateway;
  readonly idempotency: IdempotencyStore;
}
