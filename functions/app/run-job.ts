import { finishPendingRemovals } from './delete-resources';
import { cleanupFiles } from './manage-files';
import { recoverCompletions } from './recover-checkout-completions';
import { sweepAppDeletions } from './process-app-deletion';
import { cleanEmptySessions, expireAnonymousConsumers } from './run-retention-jobs';
import type { Deps } from '../ports/deps';
import type { JobName } from '../workers';

/** Items one scheduled run handles at most (the schedule's 300 s Lambda); the next run continues. */
export const SCHEDULED_BATCH = 1000;

/**
 * Runs one scheduled job by name; shared by the schedule handlers, the local timers and the admin API.
 * `maxItems` bounds the work of one run (the admin API passes a smaller number to answer within 29 s).
 */
export async function runJob(
  deps: Pick<Deps, 'apps' | 'jobs' | 'sessions' | 'consumers' | 'tombstones' | 'files' | 'objects' | 'variables' | 'ids' | 'clock' | 'settings' | 'products' | 'checkouts' | 'inventory' | 'payments' | 'idempotency'>,
  name: JobName, maxItems = SCHEDULED_BATCH): Promise<Record<string, number>> {
  switch (name) {
    case 'retention-expiry':
      return expireAnonymousConsumers(deps, { maxConsumers: maxItems });
    case 'empty-session-cleanup':
      return cleanEmptySessions(deps, { maxSessions: maxItems });
    case 'deletion-sweep': {
      const apps = await sweepAppDeletions(deps);
      const removals = await finishPendingRemovals(deps, { maxTombstones: maxItems });
      return { ...apps, ...removals };
    }
    case 'file-cleanup':
      return cleanupFiles(deps, { maxFiles: maxItems });
    case 'checkout-recovery':
      return recoverCompletions(deps, { maxSessions: maxItems });
  }
}
