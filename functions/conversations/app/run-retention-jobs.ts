import { lastActivityOf } from '../domain/session';
import type { ConversationDeps, SessionRemovalStore } from './conversation-ports';
import { removeConsumer } from './delete-resources';

const PAGE = 100;

/**
 * The anonymous-consumer retention job: reclaims anonymous consumers with no message activity for
 * `anonRetentionDays`, with cause `retention_expiry`. The index's recorded activity is only a hint:
 * the consumer's sessions are checked before anything is removed, and a consumer found active is
 * re-filed under its real activity.
 */
export async function expireAnonymousConsumers(
  deps: Pick<ConversationDeps, 'consumers' | 'tombstones' | 'files' | 'ids' | 'clock' | 'settings'> & { readonly sessions: SessionRemovalStore },
  input: { maxConsumers?: number } = {},
): Promise<{ expired: number; kept: number }> {
  const cutoff = deps.clock.nowUs() - deps.settings.anonRetentionDays * 86_400_000_000;
  const max = input.maxConsumers ?? 1000;
  let expired = 0;
  let kept = 0;
  while (expired + kept < max) {
    const candidates = await deps.consumers.listAnonymousInactiveBefore(cutoff, Math.min(PAGE, max - expired - kept));
    if (candidates.length === 0) break;
    for (const consumer of candidates) {
      const sessions = await deps.sessions.listByConsumer(consumer.id);
      const lastActive = Math.max(consumer.createdAtUs, ...sessions.map((s) => s.lastMessageAtUs ?? s.startedAtUs));
      if (lastActive >= cutoff) {
        await deps.consumers.markActive(consumer.id, lastActive);
        kept++;
      } else {
        await removeConsumer(deps, consumer, 'retention_expiry');
        expired++;
      }
    }
  }
  return { expired, kept };
}

/**
 * The empty-session cleanup job: removes sessions that never had a message and saw no activity for
 * `emptySessionMaxAgeHours`. It leaves no tombstone: a known limitation, such sessions vanish from
 * exports without trace.
 */
export async function cleanEmptySessions(
  deps: Pick<ConversationDeps, 'files' | 'clock' | 'settings'> & { readonly sessions: SessionRemovalStore },
  input: { maxSessions?: number } = {},
): Promise<{ removed: number }> {
  const cutoff = deps.clock.nowUs() - deps.settings.emptySessionMaxAgeHours * 3_600_000_000;
  const max = input.maxSessions ?? 1000;
  let removed = 0;
  let seen = 0;
  while (seen < max) {
    const candidates = await deps.sessions.listEmptyInactiveBefore(cutoff, Math.min(PAGE, max - seen));
    if (candidates.length === 0) break;
    for (const candidate of candidates) {
      seen++;
      // The index may lag: re-read the session itself before removing it.
      const session = await deps.sessions.get(candidate.id);
      if (session && (session.lastMessageAtUs !== null || lastActivityOf(session) >= cutoff)) continue;
      // A turn that crashed after attaching its files and before its messages left links: release them.
      await deps.files.releaseSession(candidate.id, deps.clock.nowUs());
      await deps.sessions.remove(candidate.id, deps.clock.nowUs());
      removed++;
    }
    if (candidates.length < PAGE) break;
  }
  return { removed };
}

/** Scheduled job `retention-expiry`: at most `maxItems` consumers per run. */
export const retentionExpiryJob = (deps: Parameters<typeof expireAnonymousConsumers>[0], maxItems: number) =>
  expireAnonymousConsumers(deps, { maxConsumers: maxItems });

/** Scheduled job `empty-session-cleanup`: at most `maxItems` sessions per run. */
export const emptySessionCleanupJob = (deps: Parameters<typeof cleanEmptySessions>[0], maxItems: number) => cleanEmptySessions(deps, { maxSessions: maxItems });
