/**
 * A webhook delivery that ends without a network call: a subscription whose callback is a private
 * address (the SSRF check refuses it, and the attempt is recorded) and a published period for it. For
 * the tests that drive the webhooks worker and only need to see that an attempt ran once.
 */
import { randomUUID } from 'node:crypto';
import type { ReleasePeriod } from '../../functions/release-notes/domain/release-notes';
import { buildPeriod } from '../../functions/release-notes/domain/release-notes';
import { parseIsoToMicros } from '../../functions/kernel/domain/time';
import { hashSecret } from '../../functions/release-notes/domain/webhook-subscription';
import type { LocalDeps } from '../../functions/local/local-wiring';

export async function seedRefusedDelivery(
  deps: LocalDeps,
  opts: { readonly title: string; readonly day: string },
): Promise<{ readonly subscriptionId: string; readonly period: ReleasePeriod }> {
  const now = deps.clock.nowUs();
  const subscriptionId = randomUUID();
  await deps.subscriptions.create({
    id: subscriptionId,
    callbackUrl: 'https://10.1.2.3/hook',
    areas: [],
    categories: [],
    isActive: true,
    secretHash: hashSecret(`whsec_${subscriptionId}`),
    secretLast4: subscriptionId.slice(-4),
    // Never opened: the attempt stops at the address check, before signing.
    sealedSecret: 'never-opened',
    createdAtUs: now,
    updatedAtUs: now,
  });
  const start = parseIsoToMicros(`${opts.day}T00:00:00Z`)!;
  const period = buildPeriod(
    { periodStartUs: start, periodEndUs: start + 86_400_000_000, markdown: '', items: [{ title: opts.title, body: '', kind: 'fix' }] },
    now,
  );
  await deps.releaseNotes.put(period);
  return { subscriptionId, period };
}
