/**
 * Order events to the agent platform (the Agentic Checkout Webhooks API, 2026-04-17): every change of
 * an order is one event, `order_create` for revision 1 and `order_update` after, whose `data` is the
 * whole Order as it stood after the change (never a delta). The body is serialized once, when the
 * change is written, and those bytes are what every attempt sends and signs:
 *
 *   Merchant-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>", keyed with the secret>
 *
 * The events of one order are delivered in revision order: an event is attempted only once every
 * earlier one was delivered or dropped. Network errors, timeouts, 408, 429 and 5xx are tried again
 * later (ORDER_EVENT_RETRY_DELAYS_SECONDS); any other answer that is not 2xx, or a refused address,
 * drops the event, and the next one goes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { attemptOutcome, type AttemptOutcome, type AttemptResult } from '../../kernel/domain/outbound-webhook';

export type { AttemptOutcome };
import type { Micros } from '../../kernel/domain/time';

export type OrderEventType = 'order_create' | 'order_update';

export const MERCHANT_SIGNATURE_HEADER = 'Merchant-Signature';
/** The receiver's window for `t`, as the webhooks API recommends. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
export const ORDER_EVENT_TIMEOUT_MS = 10_000;
/** Waits before attempts 2 to 8 (SQS delays at most 15 minutes): about an hour of retries in all. */
export const ORDER_EVENT_RETRY_DELAYS_SECONDS = [10, 60, 300, 900, 900, 900, 900] as const;
export const ORDER_EVENT_MAX_ATTEMPTS = ORDER_EVENT_RETRY_DELAYS_SECONDS.length + 1;

export const eventTypeOf = (revision: number): OrderEventType => (revision === 1 ? 'order_create' : 'order_update');

/** The event body: `{type, data}` with the Order view, as bytes. */
export function orderEventBody(revision: number, order: Record<string, unknown>): string {
  return JSON.stringify({ type: eventTypeOf(revision), data: order });
}

/** `t=<unix>,v1=<hex>` over `<t>.<body>`. */
export function merchantSignature(secret: string, unixSeconds: number, body: string | Uint8Array): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.`, 'utf8').update(body).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

const SIGNATURE_FORMAT = /^t=(\d{1,12}),v1=([a-fA-F0-9]{64})$/;

/**
 * The receiver's check, as the webhooks API says: the header's form, `t` within the tolerance of the
 * receiver's clock, and the MAC compared in constant time. For receivers written against this module
 * (the local listener) and for tests.
 */
export function verifyMerchantSignature(secret: string, body: string | Uint8Array, header: string | undefined, nowUnixSeconds: number): boolean {
  const m = header ? SIGNATURE_FORMAT.exec(header.trim()) : null;
  if (!m) return false;
  const t = Number(m[1]);
  if (Math.abs(nowUnixSeconds - t) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${t}.`, 'utf8').update(body).digest();
  const given = Buffer.from(m[2]!, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Every header of one attempt. */
export function orderEventHeaders(secret: string, eventId: string, atUs: Micros, body: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'platform-acp-order-events/1.0',
    [MERCHANT_SIGNATURE_HEADER]: merchantSignature(secret, Math.floor(atUs / 1_000_000), body),
    'Request-Id': eventId,
    Timestamp: new Date(Math.floor(atUs / 1000)).toISOString(),
  };
}

/** One finished attempt, as the event's delivery log keeps it (no body, no secret, no address). */
export interface OrderEventAttempt {
  readonly attempt: number;
  readonly attemptedAtUs: Micros;
  readonly latencyMs: number;
  readonly outcome: AttemptOutcome;
  readonly httpStatus?: number;
  readonly error?: string;
}

/**
 * An event not delivered yet, kept in the session's outbox (`CheckoutSession.orderEvents`): written in
 * the same item write as the change it describes, so a change is never stored without its event.
 */
export interface PendingOrderEvent {
  readonly revision: number;
  readonly type: OrderEventType;
  readonly body: string;
  readonly createdAtUs: Micros;
}

/** At most this many events wait in one order's outbox: a change beyond it is refused until the receiver takes them. */
export const MAX_PENDING_ORDER_EVENTS = 25;

/** The event id (`Request-Id`): the same for every attempt of one event. */
export const orderEventId = (orderId: string, revision: number) => `${orderId}.${revision}`;

export function pendingOrderEvent(revision: number, order: Record<string, unknown>, atUs: Micros): PendingOrderEvent {
  return { revision, type: eventTypeOf(revision), body: orderEventBody(revision, order), createdAtUs: atUs };
}

/** Where one order's delivery stands: events up to `deliveredThrough` are done (delivered or dropped). */
export interface OrderEventCursor {
  readonly deliveredThrough: number;
  /** Attempts made of the event after `deliveredThrough`. */
  readonly attempts: number;
  /** A retry waits until then. */
  readonly notBeforeUs: Micros;
}

/** One finished attempt in the order's delivery log. */
export interface OrderEventLogEntry extends OrderEventAttempt {
  readonly revision: number;
  readonly type: OrderEventType;
}

/** The retry rule of one attempt's result: the platform's, with ORDER_EVENT_MAX_ATTEMPTS. */
export function orderEventOutcome(result: AttemptResult, attempt: number): AttemptOutcome {
  return attemptOutcome(result, attempt, ORDER_EVENT_MAX_ATTEMPTS);
}

/** Seconds before the attempt after `attempt`. */
export const orderEventRetryDelay = (attempt: number): number =>
  ORDER_EVENT_RETRY_DELAYS_SECONDS[Math.min(attempt, ORDER_EVENT_RETRY_DELAYS_SECONDS.length) - 1]!;
