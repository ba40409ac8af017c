import { matchesFilters } from '../domain/release-notes';
import type { ReleaseNotesDeps } from './release-notes-ports';
import type { WebhookMessage } from './release-notes-ports';

/** Subscriptions read per page; each page's matches are queued before the next page is read. */
export const FANOUT_PAGE_SIZE = 500;

export interface FanOutResult {
  readonly scanned: number;
  readonly enqueued: number;
  /** Set when the pass stopped early: continue it from here in a new message. */
  readonly cursor?: string;
  /** The period is gone or was re-published since (its own fan-out covers it). */
  readonly superseded?: true;
}

/**
 * Queues one delivery (attempt 1) per active subscription whose filters match the period, page by
 * page, in SendMessageBatch calls of 10. Stops after a page when `shouldYield` says the invocation
 * is running out of time and returns the cursor to continue from, so any number of subscribers fits
 * in bounded invocations. Re-running a page queues its deliveries again; the delivery worker drops
 * the duplicates (one run per subscription, period, revision and attempt).
 */
export async function fanOutReleasePeriod(
  deps: Pick<ReleaseNotesDeps, 'releaseNotes' | 'subscriptions' | 'webhookQueue'>,
  input: { periodId: string; revision: string; cursor?: string; shouldYield: () => boolean },
): Promise<FanOutResult> {
  const period = await deps.releaseNotes.get(input.periodId);
  if (!period || period.revision !== input.revision) return { scanned: 0, enqueued: 0, superseded: true };
  let cursor = input.cursor;
  let scanned = 0;
  let enqueued = 0;
  let page = deps.subscriptions.pageActive(FANOUT_PAGE_SIZE, cursor);
  for (;;) {
    const { subscriptions, cursor: next } = await page;
    // Read the next page while this one is being queued.
    const more = next !== undefined && !input.shouldYield();
    if (more) page = deps.subscriptions.pageActive(FANOUT_PAGE_SIZE, next);
    const messages: WebhookMessage[] = subscriptions
      .filter((s) => matchesFilters(period, s))
      .map((s) => ({ type: 'deliver', subscriptionId: s.id, periodId: period.id, revision: period.revision, attempt: 1 }));
    await deps.webhookQueue.send(messages);
    scanned += subscriptions.length;
    enqueued += messages.length;
    cursor = next;
    if (!more) break;
  }
  return { scanned, enqueued, ...(cursor ? { cursor } : {}) };
}
