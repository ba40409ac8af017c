import { DomainError, badRequest } from '../../kernel/domain/errors';
import { matchesFilters, type ChangeKind } from '../domain/release-notes';
import {
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_SECRET_RANDOM_LENGTH,
  hashSecret,
  lastFour,
  normalizeAreas,
  type WebhookSubscription,
} from '../domain/webhook-subscription';
import type { ReleaseNotesDeps } from './release-notes-ports';
import { checkCallbackUrl } from '../../kernel/app/check-callback-url';

/** How many recent matching periods a new subscription receives (spec). */
export const BACKFILL_PERIODS = 5;

const REJECTION: Record<string, string> = {
  invalid_url: 'must be an absolute https URL without credentials or fragment',
  refused_address: 'must not point to a private, loopback, link-local or otherwise non-public address',
  dns_not_found: 'host name does not resolve',
};

export interface CreatedSubscription {
  readonly subscription: WebhookSubscription;
  /** The full secret: returned exactly once, never stored in the clear. */
  readonly secret: string;
}

/**
 * Creates a webhook subscription: the callback must pass the SSRF check now (and passes it again at
 * every delivery); the secret is `whsec_` + 40 CSPRNG characters, stored sealed beside its hash and
 * last four characters. The 5 most recent matching periods are queued through the normal delivery
 * path. If the backfill cannot be queued the subscription is removed again, so no subscription
 * exists whose secret nobody received.
 */
export async function createWebhookSubscription(
  deps: Pick<ReleaseNotesDeps, 'subscriptions' | 'releaseNotes' | 'webhookQueue' | 'secrets' | 'resolver' | 'webhookExceptions' | 'ids' | 'clock'>,
  input: { callbackUrl: string; areas?: readonly string[]; categories?: readonly ChangeKind[] },
): Promise<CreatedSubscription> {
  const check = await checkCallbackUrl(deps, input.callbackUrl);
  if (!check.ok) {
    if (check.reason === 'dns_temporary') throw new DomainError('unavailable', 'Could not resolve the callbackUrl host right now; try again');
    throw badRequest(`Invalid callbackUrl: ${REJECTION[check.reason]}`);
  }
  const now = deps.clock.nowUs();
  const id = deps.ids.uuid();
  const secret = WEBHOOK_SECRET_PREFIX + deps.ids.secret(WEBHOOK_SECRET_RANDOM_LENGTH);
  const subscription: WebhookSubscription = {
    id,
    callbackUrl: check.url,
    areas: normalizeAreas(input.areas ?? []),
    categories: [...new Set(input.categories ?? [])],
    isActive: true,
    secretHash: hashSecret(secret),
    secretLast4: lastFour(secret),
    sealedSecret: await deps.secrets.seal(secret, { subscriptionId: id }),
    createdAtUs: now,
    updatedAtUs: now,
  };
  await deps.subscriptions.create(subscription);
  try {
    const recent = (await deps.releaseNotes.listNewestFirst()).filter((p) => matchesFilters(p, subscription)).slice(0, BACKFILL_PERIODS);
    await deps.webhookQueue.send(recent.map((p) => ({ type: 'deliver', subscriptionId: id, periodId: p.id, revision: p.revision, attempt: 1 })));
  } catch (err) {
    await deps.subscriptions.remove(subscription);
    throw err;
  }
  return { subscription, secret };
}
