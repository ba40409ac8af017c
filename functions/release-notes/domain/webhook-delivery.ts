/**
 * One webhook delivery (spec, area D "Events"): the body, its signatures and the retry rule.
 *
 * - The body holds exactly the spec's fields and is serialized once; both signatures are computed over
 *   those bytes, and those bytes are what is sent.
 * - `X-Svc-Signature: sha256=<hex>`: HMAC-SHA256 of the body keyed with the secret's UTF-8 bytes.
 * - Standard Webhooks headers beside it (additive): `webhook-id`, `webhook-timestamp`,
 *   `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed, as that spec
 *   says, with the base64 decoding of the part after `whsec_`.
 * - Attempts 1..3; network error, timeout, 408, 429 and 5xx retry after 1 s then 3 s; any other
 *   non-2xx (other 4xx, a redirect) or a refused address drops the period for that subscription.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { areasOf, categoriesOf, type ReleasePeriod } from './release-notes';
import { microsToIso, type Micros } from '../../kernel/domain/time';
import { attemptOutcome, type AttemptOutcome, type AttemptResult } from '../../kernel/domain/outbound-webhook';
import { WEBHOOK_SECRET_PREFIX } from './webhook-subscription';

export const WEBHOOK_EVENT = 'release_notes.period_published';
export const DELIVERY_TIMEOUT_MS = 10_000;
export const MAX_ATTEMPTS = 3;
/** Delay before attempt 2 and attempt 3, in seconds (SQS per-message DelaySeconds). */
export const RETRY_DELAYS_SECONDS = [1, 3] as const;
export const SIGNATURE_HEADER = 'X-Svc-Signature';

export function deliveryBody(period: ReleasePeriod, deliveredAtUs: Micros): Uint8Array {
  const body = {
    event: WEBHOOK_EVENT,
    periodStart: microsToIso(period.periodStartUs),
    periodEnd: microsToIso(period.periodEndUs),
    markdown: period.markdown,
    categories: categoriesOf(period),
    areas: areasOf(period),
    timestamp: microsToIso(deliveredAtUs),
  };
  return Buffer.from(JSON.stringify(body), 'utf8');
}

/** `sha256=<hex>` over the exact body bytes. */
export function svcSignature(secret: string, body: Uint8Array): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

const SIGNATURE_FORMAT = /^sha256=[0-9a-f]{64}$/;

/**
 * The receiver's check: only `^sha256=[0-9a-f]{64}$`, decoded to exactly 32
 * bytes and compared in constant time. Exported for receivers written against this module and for tests.
 */
export function verifySvcSignature(secret: string, body: Uint8Array, header: string | undefined): boolean {
  if (!header || !SIGNATURE_FORMAT.test(header)) return false;
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  const expected = createHmac('sha256', secret).update(body).digest();
  return given.length === 32 && timingSafeEqual(given, expected);
}

/** The Standard Webhooks message id: the same for every attempt of one delivery. */
export function standardWebhookId(subscriptionId: string, periodId: string, revision: string): string {
  return `msg_${createHash('sha256').update(`${subscriptionId}|${periodId}|${revision}`).digest('base64url').slice(0, 27)}`;
}

export function standardWebhookHeaders(secret: string, id: string, deliveredAtUs: Micros, body: Uint8Array): Record<string, string> {
  const timestamp = String(Math.floor(deliveredAtUs / 1_000_000));
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), body]);
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${createHmac('sha256', key).update(signed).digest('base64')}`,
  };
}

/** Every header of one attempt. */
export function deliveryHeaders(secret: string, webhookId: string, deliveredAtUs: Micros, body: Uint8Array): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'platform-webhooks/1.0',
    [SIGNATURE_HEADER]: svcSignature(secret, body),
    ...standardWebhookHeaders(secret, webhookId, deliveredAtUs, body),
  };
}

export type { AttemptOutcome };

/** The spec's retry rule for one attempt result: the platform's, with three attempts. */
export function outcomeOf(result: AttemptResult, attempt: number): AttemptOutcome {
  return attemptOutcome(result, attempt, MAX_ATTEMPTS);
}

/** Seconds to wait before the attempt after `attempt`. */
export function retryDelaySeconds(attempt: number): number {
  return RETRY_DELAYS_SECONDS[Math.min(attempt, RETRY_DELAYS_SECONDS.length) - 1]!;
}
