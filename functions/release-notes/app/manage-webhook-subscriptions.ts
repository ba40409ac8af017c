import type { ReleaseNotesDeps } from './release-notes-ports';
import type { DeliveryAttemptRecord } from './release-notes-ports';
import type { WebhookSubscription } from '../domain/webhook-subscription';
import { authorizeSubscription, subscriptionOfSecret } from './authorize-subscription';

/** The subscription owning the secret (masked when shown), or none: never an error (spec). */
export async function listWebhookSubscriptions(
  deps: Pick<ReleaseNotesDeps, 'subscriptions'>,
  input: { secret: string | undefined },
): Promise<WebhookSubscription[]> {
  const owned = await subscriptionOfSecret(deps, input.secret);
  return owned ? [owned] : [];
}

/** Deletes the subscription when the secret is its own (404 otherwise), with its delivery log. */
export async function deleteWebhookSubscription(
  deps: Pick<ReleaseNotesDeps, 'subscriptions' | 'deliveryLog'>,
  input: { subscriptionId: string; secret: string | undefined },
): Promise<void> {
  const subscription = await authorizeSubscription(deps, input);
  await deps.subscriptions.remove(subscription);
  await deps.deliveryLog.removeAll(subscription.id);
}

export const DELIVERY_LOG_LIMIT = 100;

/** The most recent finished delivery attempts of the subscription (beyond the spec, opt-in). */
export async function listWebhookDeliveries(
  deps: Pick<ReleaseNotesDeps, 'subscriptions' | 'deliveryLog'>,
  input: { subscriptionId: string; secret: string | undefined },
): Promise<DeliveryAttemptRecord[]> {
  const subscription = await authorizeSubscription(deps, input);
  return deps.deliveryLog.list(subscription.id, DELIVERY_LOG_LIMIT);
}
