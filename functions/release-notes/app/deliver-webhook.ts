import {
  DELIVERY_TIMEOUT_MS,
  deliveryBody,
  deliveryHeaders,
  outcomeOf,
  retryDelaySeconds,
  standardWebhookId,
  type AttemptOutcome,
} from '../domain/webhook-delivery';
import type { AttemptResult } from '../../kernel/domain/outbound-webhook';
import type { ReleaseNotesDeps } from './release-notes-ports';
import type { ClaimResult, DeliveryKey } from './release-notes-ports';
import { checkCallbackUrl, type CallbackCheck } from '../../kernel/app/check-callback-url';

/**
 * A claim older than this belongs to a worker that died mid-attempt and is taken over. Longer than
 * one attempt (10 s) can take, shorter than the queue's visibility timeout.
 */
export const CLAIM_LEASE_US = 60_000_000;

export type DeliveryOutcome =
  | { readonly outcome: AttemptOutcome; readonly result: AttemptResult }
  | { readonly outcome: 'skipped'; readonly reason: 'subscription_gone' | 'superseded' | Exclude<ClaimResult, 'claimed'> };

function failureOf(check: Exclude<CallbackCheck, { ok: true }>): AttemptResult {
  if (check.reason === 'refused_address') return { error: 'refused_address' };
  if (check.reason === 'invalid_url') return { error: 'invalid_url' };
  return { error: 'dns' };
}

/**
 * One delivery attempt of a period to a subscription. The callback passes the SSRF check again right
 * now (a host that resolved to a public address at subscribe time may not any more), the connection
 * goes only to the addresses that check accepted, and the body is signed as sent.
 *
 * Network errors, timeouts, 408, 429 and 5xx queue the next attempt (after 1 s, then 3 s) until the
 * third; anything else that is not 2xx drops the period for this subscription. Either way the attempt
 * is finished and recorded: a failed delivery is not a failure of the worker. Each attempt runs once
 * per (subscription, period, revision, attempt) even when its message arrives twice.
 */
export async function deliverWebhook(
  deps: Pick<
    ReleaseNotesDeps,
    'subscriptions' | 'releaseNotes' | 'deliveryLog' | 'secrets' | 'resolver' | 'webhookExceptions' | 'webhookSender' | 'webhookQueue' | 'clock'
  >,
  key: DeliveryKey,
): Promise<DeliveryOutcome> {
  const subscription = await deps.subscriptions.get(key.subscriptionId);
  if (!subscription?.isActive) return { outcome: 'skipped', reason: 'subscription_gone' };
  const period = await deps.releaseNotes.get(key.periodId);
  if (!period || period.revision !== key.revision) return { outcome: 'skipped', reason: 'superseded' };

  const startedUs = deps.clock.nowUs();
  const claim = await deps.deliveryLog.claim(key, startedUs, startedUs - CLAIM_LEASE_US);
  if (claim !== 'claimed') return { outcome: 'skipped', reason: claim };

  const check = await checkCallbackUrl(deps, subscription.callbackUrl);
  let result: AttemptResult;
  if (!check.ok) {
    result = failureOf(check);
  } else {
    const secret = await deps.secrets.open(subscription.sealedSecret, { subscriptionId: subscription.id });
    const deliveredAtUs = deps.clock.nowUs();
    const body = deliveryBody(period, deliveredAtUs);
    const headers = deliveryHeaders(secret, standardWebhookId(subscription.id, period.id, period.revision), deliveredAtUs, body);
    result = await deps.webhookSender.send({
      url: check.url,
      hostname: check.hostname,
      addresses: check.addresses,
      headers,
      body,
      timeoutMs: DELIVERY_TIMEOUT_MS,
    });
  }
  const latencyMs = Math.max(0, Math.round((deps.clock.nowUs() - startedUs) / 1000));
  const outcome = outcomeOf(result, key.attempt);
  // The next attempt is queued before this one is marked finished: a crash in between repeats this
  // attempt (at least once), it never loses the next one.
  if (outcome === 'retry') {
    await deps.webhookQueue.send([{ type: 'deliver', ...key, attempt: key.attempt + 1 }], retryDelaySeconds(key.attempt));
  }
  await deps.deliveryLog.complete({
    ...key,
    periodStartUs: period.periodStartUs,
    periodEndUs: period.periodEndUs,
    attemptedAtUs: startedUs,
    latencyMs,
    outcome,
    ...('status' in result ? { httpStatus: result.status } : { error: result.error }),
  });
  return { outcome, result };
}
