/**
 * Deletions that leave tombstones. Each follows "tombstone first" (docs/design.md §3): the tombstone is
 * written before anything is removed, and every step is idempotent, so a crash anywhere converges when
 * the same deletion runs again.
 */
import type { Consumer } from '../domain/consumer';
import { notFound } from '../../kernel/domain/errors';
import type { Session } from '../domain/session';
import { tombstoneIdOf, type Tombstone, type TombstoneCause } from '../domain/tombstone';
import type { ConversationDeps, SessionRemovalStore } from './conversation-ports';

type DeletionDeps = Pick<ConversationDeps, 'consumers' | 'tombstones' | 'files' | 'ids' | 'clock' | 'settings'> & { readonly sessions: SessionRemovalStore };

/**
 * Writes the resource's tombstone once. A fresh tombstone whose write took longer than half the
 * visibility delay is re-stamped, so it surfaces above any position a reader may have passed meanwhile.
 */
async function writeTombstone(deps: DeletionDeps, t: Omit<Tombstone, 'id' | 'deletedAtUs'>): Promise<Tombstone> {
  const deletedAtUs = deps.clock.nowUs();
  const fresh: Tombstone = { ...t, deletedAtUs, id: tombstoneIdOf(deletedAtUs, deps.ids.secret(8)) };
  const stored = await deps.tombstones.putOnce(fresh);
  const now = deps.clock.nowUs();
  if (stored.id === fresh.id && now - deletedAtUs > (deps.settings.visibilityDelayMs * 1000) / 2) {
    return deps.tombstones.restamp(stored, now, tombstoneIdOf(now, deps.ids.secret(8)));
  }
  return stored;
}

/**
 * Tombstones one session (covering its messages), releases its attached files (unreachable at once;
 * the file cleanup removes their bytes), removes it, and closes the tombstone's pending mark.
 */
export async function removeSession(deps: DeletionDeps, session: Pick<Session, 'id' | 'orgId'>, cause: TombstoneCause): Promise<Tombstone> {
  const tombstone = await writeTombstone(deps, { orgId: session.orgId, resourceType: 'session', resourceId: session.id, cause });
  // Before the session: its links to the files go with it.
  await deps.files.releaseSession(session.id, tombstone.deletedAtUs);
  await deps.sessions.remove(session.id, tombstone.deletedAtUs);
  await deps.tombstones.markRemoved(tombstone);
  return tombstone;
}

/**
 * Removes a consumer. Its tombstone comes first, so a crash anywhere below leaves a pending tombstone
 * the deletion sweep finishes. A consumer tombstone does not imply its sessions are gone (spec), so
 * each session gets its own session tombstone before it is removed; then the consumer goes.
 */
export async function removeConsumer(deps: DeletionDeps, consumer: Pick<Consumer, 'id' | 'orgId'>, cause: TombstoneCause): Promise<Tombstone> {
  const tombstone = await writeTombstone(deps, { orgId: consumer.orgId, resourceType: 'consumer', resourceId: consumer.id, cause });
  for (const session of await deps.sessions.listByConsumer(consumer.id)) {
    await removeSession(deps, session, tombstone.cause);
  }
  await deps.consumers.remove(consumer.id);
  await deps.tombstones.markRemoved(tombstone);
  return tombstone;
}

/**
 * The deletion sweep's second half: finishes every removal whose tombstone is still pending a minute
 * after it was written (a crash, a timeout, a lost request). Re-running a removal is harmless.
 */
export async function finishPendingRemovals(deps: DeletionDeps, input: { maxTombstones: number }): Promise<{ finished: number }> {
  const settleUs = 60_000_000;
  const pending = await deps.tombstones.listPendingRemoval(deps.clock.nowUs() - settleUs, input.maxTombstones);
  for (const t of pending) {
    if (t.resourceType === 'session') {
      await deps.sessions.remove(t.resourceId, t.deletedAtUs);
      await deps.tombstones.markRemoved(t);
    } else {
      await removeConsumer(deps, { id: t.resourceId, orgId: t.orgId }, t.cause);
    }
  }
  return { finished: pending.length };
}

/**
 * The product's "delete session" action: cause `consumer_deleted`. A session whose earlier removal was
 * interrupted is still found, so a retry finishes it (and returns the tombstone written the first time).
 * With `orgId` (a caller bound to one org, the console), a session of another org is not found.
 */
export async function deleteSession(deps: DeletionDeps, input: { sessionId: string; orgId?: string }): Promise<Tombstone> {
  const session = await deps.sessions.getForRemoval(input.sessionId);
  if (!session || (input.orgId !== undefined && session.orgId !== input.orgId)) throw notFound('Session not found');
  return removeSession(deps, session, 'consumer_deleted');
}

/** The product's "delete consumer" action: cause `consumer_deleted`; with `orgId`, only a consumer of that org. */
export async function deleteConsumer(deps: DeletionDeps, input: { consumerId: string; orgId?: string }): Promise<Tombstone> {
  const consumer = await deps.consumers.get(input.consumerId);
  if (!consumer || (input.orgId !== undefined && consumer.orgId !== input.orgId)) throw notFound('Consumer not found');
  return removeConsumer(deps, consumer, 'consumer_deleted');
}
