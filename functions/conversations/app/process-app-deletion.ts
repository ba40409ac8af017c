import type { ConversationDeps, SessionRemovalStore } from './conversation-ports';
import { finishPendingRemovals, removeConsumer, removeSession } from './delete-resources';

type AppDeletionDeps = Pick<ConversationDeps, 'apps' | 'consumers' | 'tombstones' | 'files' | 'jobs' | 'ids' | 'clock' | 'settings'> & {
  readonly sessions: SessionRemovalStore;
};

/**
 * One batch of an app deletion: tombstones (`app_deleted`) and removes up to `appDeletionBatchSize`
 * sessions, then the app's consumers, releases the app's remaining files, and marks the deletion complete when nothing is left. Returns
 * whether more work remains; the worker then queues a continuation, so no batch outlives a Lambda
 * timeout. Re-running any batch is harmless: tombstones are written once per resource.
 */
export async function processAppDeletion(deps: AppDeletionDeps, input: { appId: string }): Promise<{ done: boolean; removed: number }> {
  const app = await deps.apps.get(input.appId);
  if (!app || app.deletedAtUs === undefined) return { done: true, removed: 0 };
  const batch = deps.settings.appDeletionBatchSize;

  const sessions = await deps.sessions.listForRemovalByApp(app.id, batch);
  for (const session of sessions) await removeSession(deps, session, 'app_deleted');
  if (sessions.length > 0) return { done: false, removed: sessions.length };

  const consumers = await deps.consumers.listByApp(app.id, batch);
  for (const consumer of consumers) await removeConsumer(deps, consumer, 'app_deleted');
  if (consumers.length > 0) return { done: false, removed: consumers.length };

  // Files no session referenced (or uploaded and never used): the file cleanup removes their bytes.
  await deps.files.releaseApp(app.id, deps.clock.nowUs());
  await deps.apps.completeDeletion(app.id);
  return { done: true, removed: 0 };
}

/** Queues every app whose deletion has not completed: recovers deletions whose messages were lost. */
export async function sweepAppDeletions(deps: Pick<ConversationDeps, 'apps' | 'jobs'>): Promise<{ queued: number }> {
  const pending = await deps.apps.listPendingDeletion(100);
  for (const app of pending) await deps.jobs.send({ type: 'app-deletion', appId: app.id });
  return { queued: pending.length };
}

/** Scheduled job `deletion-sweep`: queues apps whose deletion stalled, then finishes at most `maxItems` pending removals. */
export async function deletionSweepJob(
  deps: Parameters<typeof sweepAppDeletions>[0] & Parameters<typeof finishPendingRemovals>[0],
  maxItems: number,
): Promise<Record<string, number>> {
  const apps = await sweepAppDeletions(deps);
  const removals = await finishPendingRemovals(deps, { maxTombstones: maxItems });
  return { ...apps, ...removals };
}
