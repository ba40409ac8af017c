/** Wire shapes of area D (camelCase, as the spec's subscription table). */
import type { ReleasePeriod } from '../domain/release-notes';
import { microsToIso } from '../../kernel/domain/time';
import { maskSecret, type WebhookSubscription } from '../domain/webhook-subscription';
import type { DeliveryAttemptRecord } from '../app/release-notes-ports';

/** A subscription; `secret` only in the create response, `maskedSecret` always. */
export function subscriptionOut(s: WebhookSubscription, secret?: string) {
  return {
    id: s.id,
    callbackUrl: s.callbackUrl,
    areas: s.areas,
    categories: s.categories,
    isActive: s.isActive,
    maskedSecret: maskSecret(s.secretLast4),
    ...(secret !== undefined ? { secret } : {}),
    createdAt: microsToIso(s.createdAtUs),
    updatedAt: microsToIso(s.updatedAtUs),
  };
}

/** One delivery attempt: when, which period, what came back; never the body, a secret or an address. */
export function deliveryOut(d: DeliveryAttemptRecord) {
  return {
    periodId: d.periodId,
    periodStart: microsToIso(d.periodStartUs),
    periodEnd: microsToIso(d.periodEndUs),
    attempt: d.attempt,
    attemptedAt: microsToIso(d.attemptedAtUs),
    latencyMs: d.latencyMs,
    outcome: d.outcome,
    httpStatus: d.httpStatus ?? null,
    error: d.error ?? null,
  };
}

export function adminPeriodOut(p: ReleasePeriod) {
  return {
    id: p.id,
    title: p.title,
    periodStart: microsToIso(p.periodStartUs),
    periodEnd: microsToIso(p.periodEndUs),
    revision: p.revision,
    items: p.items,
    markdown: p.markdown,
    publishedAt: microsToIso(p.publishedAtUs),
  };
}
