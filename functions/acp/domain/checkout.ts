/**
 * Checkout sessions of area C (Agentic Commerce Protocol 2026-04-17): the stored session, the lenient
 * line-item parser (the spec's `{product_id, quantity}`, ACP's `{id}`, `{item:{id}}` and the older
 * `items` key), server-computed totals in minor units, and the response in the official
 * `CheckoutSession` shape (closed objects: nothing extra, no empty `extensions`).
 */
import type { AcpSettings } from '../../tenancy/domain/app';
import { microsToIso, type Micros } from '../../kernel/domain/time';
import { ACP_VERSION } from './discovery';
import { isUuid } from '../../kernel/domain/ids';
import { detailsView, type CheckoutDetails } from './checkout-request';
import { handlerView } from './payment-data';
import { LINE_ITEM, MAX_LINE_ITEMS } from './request-objects';
import { isRecord } from '../../kernel/domain/request-rule';
import { invalid, label, own } from './request-shape';
import type { CheckoutOrder } from './order';
import { orderView } from './order';
import type { PendingOrderEvent } from './order-event';
import { lineTotalsOf, totalsOf } from './checkout-totals';

export { invalid, totalsOf };

/** `complete_in_progress` holds the session while one complete reserves stock and charges; nothing else may write it then. */
export type CheckoutStatus = 'not_ready_for_payment' | 'ready_for_payment' | 'complete_in_progress' | 'completed' | 'canceled' | 'expired';
export const TERMINAL: ReadonlySet<CheckoutStatus> = new Set(['completed', 'canceled', 'expired']);

export interface CheckoutLine {
  readonly lineId: string;
  readonly productId: string;
  readonly title: string;
  readonly unitAmount: number;
  readonly quantity: number;
}

export interface CheckoutMessage {
  readonly type: 'error' | 'warning' | 'info';
  readonly code?: string;
  readonly param?: string;
  readonly content: string;
}

export type { CheckoutOrder } from './order';

/**
 * The write-ahead record of a complete (`complete_in_progress`, then `completed` until its holds are
 * committed): what a complete interrupted by a crash or an unknown payment outcome needs to be finished
 * by the recovery job exactly as it would have finished. See docs/adr/0018.
 */
export interface CheckoutCompletion {
  /** The session version the claim wrote: it names this attempt's stock holds and its payment idempotency key. */
  readonly claimVersion: number;
  readonly startedAtUs: Micros;
  /** Kept until the charge settles, so a retry re-sends the same request under the same idempotency key; null after. */
  readonly paymentData: Record<string, unknown> | null;
  /** The `{base_url}` of the request that claimed it: the order's permalink, also when recovery finishes the sale. */
  readonly baseUrl?: string;
}

export interface CheckoutSession {
  readonly id: string;
  readonly orgId: string;
  readonly appId: string;
  readonly status: CheckoutStatus;
  readonly currency: string;
  readonly lines: readonly CheckoutLine[];
  /**
   * The app's tax rate when the lines were last priced (basis points, added on top of prices): a session
   * keeps the rate of its prices. Absent (a session stored before tax existed): 0.
   */
  readonly taxRateBps?: number;
  readonly buyerEmail: string | null;
  readonly messages: readonly CheckoutMessage[];
  readonly order: CheckoutOrder | null;
  /** What the session keeps of its requests beyond lines and buyer (fulfillment details, locale, discount codes...). */
  readonly details: CheckoutDetails;
  /** Set while a complete owes work (charging, or committing its stock holds); null otherwise. */
  readonly completion: CheckoutCompletion | null;
  /** The order's events not yet delivered to the agent platform (its outbox), oldest first; absent when none. */
  readonly orderEvents?: readonly PendingOrderEvent[];
  readonly createdAtUs: Micros;
  readonly updatedAtUs: Micros;
  readonly expiresAtUs: Micros;
  /** Optimistic concurrency: every write names the version it read. */
  readonly version: number;
}

/** Sessions expire after this long without completing. */
export const CHECKOUT_TTL_MS = 6 * 60 * 60 * 1000;
/**
 * A `complete_in_progress` session untouched this long is finished by recovery (its request is gone:
 * the checkout functions time out after 29 s, a crash, or a payment outcome that was unknown).
 */
export const COMPLETION_LEASE_MS = 2 * 60 * 1000;

/** The holder name of a complete's stock holds and the payment idempotency key of its charge. */
export function completionHolder(s: Pick<CheckoutSession, 'id'>, c: CheckoutCompletion): string {
  return `${s.id}:${c.claimVersion}`;
}
export const MAX_QUANTITY = 10_000;

export interface RequestedLine {
  readonly productId: string;
  readonly quantity: number;
}

/**
 * `line_items` (or ACP's older `items`): each entry is a closed LINE_ITEM naming its product as
 * `product_id`, `id` or `item.id` (the first present), with `quantity` (default 1, as ACP's proposed
 * line-item quantity has it). Duplicates merge by adding quantities.
 */
export function parseLineItems(body: Record<string, unknown>, required: boolean): RequestedLine[] | undefined {
  const lineItems = own(body, 'line_items');
  const items = own(body, 'items');
  if (lineItems !== undefined && items !== undefined) throw invalid('invalid', 'Send line_items or items, not both', '$.line_items');
  const key = items !== undefined ? 'items' : 'line_items';
  const raw = items !== undefined ? items : lineItems;
  if (raw === undefined) {
    if (required) throw invalid('missing', 'line_items is required: [{ product_id, quantity }]', '$.line_items');
    return undefined;
  }
  if (!Array.isArray(raw) || raw.length === 0) throw invalid('invalid', 'line_items must be a non-empty array of { product_id, quantity }', `$.${key}`);
  if (raw.length > MAX_LINE_ITEMS) throw invalid('invalid', `line_items: at most ${MAX_LINE_ITEMS} entries`, `$.${key}`);
  const merged = new Map<string, number>();
  raw.forEach((entry: unknown, i) => {
    const at = `$.${key}[${i}]`;
    if (!isRecord(entry)) throw invalid('invalid', `${key}[${i}] must be an object { product_id, quantity }`, at);
    LINE_ITEM.read(entry, at);
    const item = own(entry, 'item') as Record<string, unknown> | undefined;
    const [path, id] =
      own(entry, 'product_id') !== undefined
        ? [`${at}.product_id`, entry.product_id]
        : own(entry, 'id') !== undefined
          ? [`${at}.id`, entry.id]
          : [`${at}.item.id`, item?.id];
    if (id === undefined) throw invalid('missing', `${key}[${i}] must name its product: product_id, id or item.id`, `${at}.product_id`);
    if (typeof id !== 'string' || !isUuid(id)) throw invalid('invalid_item_id', `${label(path)} must be the UUID of a product`, path);
    const quantity = (own(entry, 'quantity') ?? 1) as number;
    if (quantity < 1 || quantity > MAX_QUANTITY)
      throw invalid('invalid', `${key}[${i}].quantity must be a whole number from 1 to ${MAX_QUANTITY}`, `${at}.quantity`);
    merged.set(id.toLowerCase(), Math.min(MAX_QUANTITY, (merged.get(id.toLowerCase()) ?? 0) + quantity));
  });
  return [...merged].map(([productId, quantity]) => ({ productId, quantity }));
}

/** ACP `Link` types of the merchant's policies, by the app setting that holds each URL. */
const POLICY_LINKS = [
  ['termsOfUseUrl', 'terms_of_use', 'Terms of use'],
  ['privacyPolicyUrl', 'privacy_policy', 'Privacy policy'],
  ['returnPolicyUrl', 'return_policy', 'Return policy'],
] as const;

export interface PolicyLink {
  readonly type: (typeof POLICY_LINKS)[number][1];
  readonly title: string;
  readonly url: string;
}

/** The session's ACP `links`: the app's policies that are set (none for an app without ACP settings). */
export function policyLinks(acp: AcpSettings | undefined): PolicyLink[] {
  return POLICY_LINKS.flatMap(([setting, type, title]) => (acp?.[setting] ? [{ type, title, url: acp[setting] }] : []));
}

export const TEST_PAYMENT_HANDLER_ID = 'platform_test_card';

/** The payment handlers a session offers (the built-in test handler locally; the Stripe handler on AWS). */
export interface PaymentHandlerView {
  readonly id: string;
  readonly name: string;
  readonly display_name: string;
  readonly version: string;
  readonly spec: string;
  readonly requires_delegate_payment: boolean;
  readonly requires_pci_compliance: boolean;
  readonly psp: string;
  readonly config_schema: string;
  readonly instrument_schemas: readonly string[];
  readonly config: Record<string, unknown>;
}

/** The ACP `CheckoutSession` (with `order` once completed) for a stored session, showing the app's policy `links`. */
export function checkoutView(s: CheckoutSession, handlers: readonly PaymentHandlerView[], baseUrl: string, links: readonly PolicyLink[]) {
  const lineIds = s.lines.map((l) => l.lineId);
  const lineTotals = lineTotalsOf(s);
  return {
    id: s.id,
    protocol: { version: ACP_VERSION },
    status: s.status,
    currency: s.currency,
    line_items: s.lines.map((l, i) => ({
      id: l.lineId,
      item: { id: l.productId, name: l.title, unit_amount: l.unitAmount },
      quantity: l.quantity,
      name: l.title,
      unit_amount: l.unitAmount,
      product_id: l.productId,
      totals: lineTotals[i],
    })),
    totals: totalsOf(s),
    fulfillment_options: [{ type: 'digital', id: 'digital', title: 'Digital delivery', totals: [{ type: 'total', display_text: 'Total', amount: 0 }] }],
    ...(lineIds.length ? { selected_fulfillment_options: [{ type: 'digital', option_id: 'digital', item_ids: lineIds }] } : {}),
    messages: s.messages.map((m) =>
      m.type === 'info'
        ? { type: 'info', ...(m.param ? { param: m.param } : {}), content_type: 'plain', content: m.content }
        : { type: m.type, code: m.code ?? 'invalid', ...(m.param ? { param: m.param } : {}), content_type: 'plain', content: m.content },
    ),
    links,
    // The interventions (3-D Secure, biometrics, address verification) are the intersection of the
    // agent's and this platform's, which runs none: always none, and none required.
    capabilities: { ...(handlers.length ? { payment: { handlers: handlers.map(handlerView) } } : {}), interventions: { supported: [], required: [] } },
    ...(s.buyerEmail ? { buyer: s.details?.buyer ?? { email: s.buyerEmail } } : {}),
    ...detailsView(s.details ?? {}),
    created_at: microsToIso(s.createdAtUs),
    updated_at: microsToIso(s.updatedAtUs),
    expires_at: microsToIso(s.expiresAtUs),
    ...(s.order ? { order: orderView(s, s.order, totalsOf(s), baseUrl) } : {}),
  };
}
