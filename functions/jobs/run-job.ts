import { sweepAppDeletions } from '../app/process-app-deletion';
import { cleanEmptySessions, expireAnonymousConsumers } from '../app/run-retention-jobs';
import type { Deps } from '../ports';
import type { JobName } from '../workers';

/** Runs one scheduled job by name; shared by the schedule handlers, the local timers and the admin API. */
export async function runJob(deps: Deps, name: JobName): Promise<Record<string, number>> {
  switch (name) {
    case 'retention-expiry':
      return expireAnonymousConsumers(deps);
    case 'empty-session-cleanup':
      return cleanEmptySessions(deps);
    case 'app-deletion-sweep':
      return sweepAppDeletions(deps);
  }
}
