import { notFound } from '../../kernel/domain/errors';
import { hashSecret, isWellFormedSecret, type WebhookSubscription } from '../domain/webhook-subscription';
import type { ReleaseNotesDeps } from './release-notes-ports';

/** The subscription owning `secret`, or undefined (a malformed or unknown secret matches nothing). */
export async function subscriptionOfSecret(
  deps: Pick<ReleaseNotesDeps, 'subscriptions'>,
  secret: string | undefined,
): Promise<WebhookSubscription | undefined> {
  if (!secret || !isWellFormedSecret(secret)) return undefined;
  return deps.subscriptions.findBySecretHash(hashSecret(secret));
}

/**
 * The subscription `id` when `secret` is its secret. A missing or mismatched secret and an unknown id
 * all answer the same 404 (spec: existence is never revealed).
 */
export async function authorizeSubscription(
  deps: Pick<ReleaseNotesDeps, 'subscriptions'>,
  input: { subscriptionId: string; secret: string | undefined },
): Promise<WebhookSubscription> {
  const owned = await subscriptionOfSecret(deps, input.secret);
  // The secret is matched through its hash; the id is public (it is in the URL).
  if (!owned || owned.id !== input.subscriptionId) throw notFound('Subscription not found');
  return owned;
}
