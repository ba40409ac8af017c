/**
 * Order events to the agent platform's receiver (domain/order-event.ts): appended to the session's
 * outbox by the write that changes the order, then delivered by the order-events worker, one order's
 * events strictly in revision order, through the platform's SSRF-guarded sender, each attempt recorded
 * in the order's delivery log. A request asks the queue for a delivery after its write; the recovery
 * job asks again for any outbox left behind (a lost message, a crash between the write and the ask).
 */
import { checkCallbackUrl, type CallbackCheck } from '../../kernel/app/check-callback-url';
import type { AttemptResult } from '../../kernel/domain/outbound-webhook';
import { DomainError } from '../../kernel/domain/errors';
import type { CallbackCheckDeps, SecretSealer, WebhookSender } from '../../kernel/app/outbound-webhook-ports';
import type { PlatformPorts } from '../../tenancy/app/tenancy-ports';
import { totalsOf, type CheckoutSession } from '../domain/checkout';
import { orderState, orderView } from '../domain/order';
import {
  MAX_PENDING_ORDER_EVENTS,
  ORDER_EVENT_TIMEOUT_MS,
  orderEventHeaders,
  orderEventId,
  orderEventOutcome,
  orderEventRetryDelay,
  pendingOrderEvent,
} from '../domain/order-event';
import type { CheckoutPorts, OrderEventLog, OrderWebhook } from './acp-ports';

/** A claim older than this belongs to a worker that died mid-attempt (an attempt takes at most 10 s). */
export const ORDER_EVENT_CLAIM_LEASE_US = 60_000_000;

/** The binding of an app's order-webhook secret when sealed: opening it for another app fails. */
export const orderWebhookSealContext = (appId: string) => ({ acpOrderWebhookAppId: appId });

type AppendDeps = Pick<CheckoutPorts, 'orderWebhooks'> & Pick<PlatformPorts, 'settings'>;

/**
 * `next` with the event of its change in the outbox, when the order's revision rose and the app has a
 * receiver (no receiver, no event: nothing would take it). A backlog of MAX_PENDING_ORDER_EVENTS
 * refuses the change (409) until the receiver takes events again.
 */
export async function appendOrderEvent(
  deps: AppendDeps,
  before: CheckoutSession,
  next: CheckoutSession,
  /** The app's receiver as the request already read it (null: none); read here when undefined. */
  receiver?: OrderWebhook | null,
): Promise<CheckoutSession> {
  const from = before.order ? orderState(before.order).revision : 0;
  const to = next.order ? orderState(next.order).revision : 0;
  if (!next.order || to <= from) return next;
  if (!(receiver !== undefined ? receiver : await deps.orderWebhooks.get(next.appId))) return next;
  const outbox = next.orderEvents ?? [];
  if (outbox.length >= MAX_PENDING_ORDER_EVENTS) {
    throw new DomainError(
      'conflict',
      `The agent platform's receiver has not taken this order's last ${MAX_PENDING_ORDER_EVENTS} events: the order changes again once it does`,
      'order_events_backlog',
    );
  }
  // The permalink was fixed at the sale; an order from before that names it under the configured base URL.
  const order = orderView(next, next.order, totalsOf(next), deps.settings.publicBaseUrl ?? 'https://localhost');
  return { ...next, orderEvents: [...outbox, pendingOrderEvent(to, order, next.updatedAtUs)] };
}

/** Asks the worker to deliver the session's events. A failure is left to the recovery job, which asks again. */
export async function requestOrderDelivery(deps: Pick<CheckoutPorts, 'orderEventQueue'>, sessionId: string, delaySeconds = 0): Promise<boolean> {
  try {
    await deps.orderEventQueue.send([{ type: 'order-events', sessionId }], delaySeconds);
    return true;
  } catch {
    return false;
  }
}

type OrderEventDeps = Pick<CheckoutPorts, 'checkouts' | 'orderWebhooks' | 'orderEventQueue'> &
  Pick<PlatformPorts, 'clock' | 'settings'> &
  CallbackCheckDeps & {
    readonly orderEventLog: OrderEventLog;
    readonly secrets: SecretSealer;
    readonly webhookSender: WebhookSender;
  };

function failureOf(check: Exclude<CallbackCheck, { ok: true }>): AttemptResult {
  if (check.reason === 'refused_address') return { error: 'refused_address' };
  if (check.reason === 'invalid_url') return { error: 'invalid_url' };
  return { error: 'dns' };
}

export interface DeliveryRun {
  readonly delivered: number;
  readonly dropped: number;
  /** Set when the next attempt waits: the worker queued itself again with this delay. */
  readonly retryInSeconds?: number;
  /** Why the run stopped before the outbox was empty. */
  readonly stopped?: 'claimed_elsewhere' | 'yielded' | 'version_race';
}

/**
 * Delivers the session's pending events in revision order until none is left, one waits for a retry,
 * another worker holds the next one, or `shouldYield` says the invocation runs out of time (then it
 * queues itself again). Events the receiver is done with leave the outbox with a versioned write.
 */
export async function deliverOrderEvents(deps: OrderEventDeps, sessionId: string, shouldYield: () => boolean = () => false): Promise<DeliveryRun> {
  let delivered = 0;
  let dropped = 0;
  for (;;) {
    const s = await deps.checkouts.get(sessionId);
    if (!s?.order) return { delivered, dropped };
    const cursor = await deps.orderEventLog.cursor(sessionId);
    const outbox = s.orderEvents ?? [];
    const remaining = outbox.filter((e) => e.revision > cursor.deliveredThrough);
    if (remaining.length < outbox.length) {
      // The receiver is done with these: they leave the outbox (a lost race is retried by the next run).
      const pruned: CheckoutSession = { ...s, orderEvents: remaining };
      if (!(await deps.checkouts.replace(pruned, s.version))) continue;
    }
    const next = remaining[0];
    if (!next) return { delivered, dropped };
    const now = deps.clock.nowUs();
    if (cursor.notBeforeUs > now) {
      const wait = Math.min(900, Math.max(1, Math.ceil((cursor.notBeforeUs - now) / 1_000_000)));
      await requestOrderDelivery(deps, sessionId, wait);
      return { delivered, dropped, retryInSeconds: wait };
    }
    if (!(await deps.orderEventLog.claim(sessionId, next.revision, now, now - ORDER_EVENT_CLAIM_LEASE_US)))
      return { delivered, dropped, stopped: 'claimed_elsewhere' };
    const attempt = cursor.attempts + 1;
    const receiver = await deps.orderWebhooks.get(s.appId);
    let result: AttemptResult | { readonly error: 'no_receiver' };
    const startedUs = deps.clock.nowUs();
    if (!receiver) {
      result = { error: 'no_receiver' };
    } else {
      const check = await checkCallbackUrl(deps, receiver.url);
      if (!check.ok) result = failureOf(check);
      else {
        const secret = await deps.secrets.open(receiver.sealedSecret, orderWebhookSealContext(s.appId));
        const sentAtUs = deps.clock.nowUs();
        const headers = orderEventHeaders(secret, orderEventId(s.order.id, next.revision), sentAtUs, next.body);
        result = await deps.webhookSender.send({
          url: check.url,
          hostname: check.hostname,
          addresses: check.addresses,
          headers,
          body: Buffer.from(next.body, 'utf8'),
          timeoutMs: ORDER_EVENT_TIMEOUT_MS,
        });
      }
    }
    // No receiver any more: the event has nowhere to go, it is dropped like a permanent refusal.
    const outcome = 'error' in result && result.error === 'no_receiver' ? 'dropped' : orderEventOutcome(result as AttemptResult, attempt);
    const finishedUs = deps.clock.nowUs();
    const delay = outcome === 'retry' ? orderEventRetryDelay(attempt) : 0;
    await deps.orderEventLog.finish(
      sessionId,
      {
        revision: next.revision,
        type: next.type,
        attempt,
        attemptedAtUs: startedUs,
        latencyMs: Math.max(0, Math.round((finishedUs - startedUs) / 1000)),
        outcome,
        ...('status' in result ? { httpStatus: result.status } : { error: result.error }),
      },
      outcome !== 'retry',
      outcome === 'retry' ? finishedUs + delay * 1_000_000 : 0,
    );
    if (outcome === 'retry') {
      await requestOrderDelivery(deps, sessionId, delay);
      return { delivered, dropped, retryInSeconds: delay };
    }
    if (outcome === 'delivered') delivered++;
    else dropped++;
    if (shouldYield()) {
      await requestOrderDelivery(deps, sessionId);
      return { delivered, dropped, stopped: 'yielded' };
    }
  }
}
