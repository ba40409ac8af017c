import { finishPendingRemovals } from './delete-resources';
import { cleanupFiles } from './manage-files';
import { recoverCompletions } from './recover-checkout-completions';
import { sweepAppDeletions } from './process-app-deletion';
import { cleanEmptySessions, expireAnonymousConsumers } from './run-retention-jobs';
import type { JobName } from '../workers';

/** Items one scheduled run handles at most (the schedule's 300 s Lambda); the next run continues. */
export const SCHEDULED_BATCH = 1000;

type JobResult = Promise<Record<string, number>>;
type DepsOf<F extends (deps: never, input: never) => unknown> = Parameters<F>[0];

/**
 * Every scheduled job's use case, each with the narrow deps it needs: the one place a job name meets
 * its use case. A job's Lambda wires only its own entry's deps (ADR 0014), so its bundle carries no
 * other job's clients; the admin API and the local timers run any of them through `runJob`.
 * `maxItems` bounds the work of one run.
 */
export const JOBS = {
  'retention-expiry': (deps: DepsOf<typeof expireAnonymousConsumers>, maxItems: number): JobResult =>
    expireAnonymousConsumers(deps, { maxConsumers: maxItems }),
  'empty-session-cleanup': (deps: DepsOf<typeof cleanEmptySessions>, maxItems: number): JobResult => cleanEmptySessions(deps, { maxSessions: maxItems }),
  'deletion-sweep': async (deps: DepsOf<typeof sweepAppDeletions> & DepsOf<typeof finishPendingRemovals>, maxItems: number): JobResult => {
    const apps = await sweepAppDeletions(deps);
    const removals = await finishPendingRemovals(deps, { maxTombstones: maxItems });
    return { ...apps, ...removals };
  },
  'file-cleanup': (deps: DepsOf<typeof cleanupFiles>, maxItems: number): JobResult => cleanupFiles(deps, { maxFiles: maxItems }),
  'checkout-recovery': (deps: DepsOf<typeof recoverCompletions>, maxItems: number): JobResult => recoverCompletions(deps, { maxSessions: maxItems }),
} satisfies Record<JobName, (deps: never, maxItems: number) => JobResult>;

/** The deps of job `N`; for a union of names, what all of them need together (an intersection). */
export type JobDeps<N extends JobName> = { [K in N]: (deps: DepsOf<(typeof JOBS)[K]>) => void }[N] extends (deps: infer D) => void ? D : never;

/**
 * Runs one scheduled job by name; shared by the schedule handlers, the local timers and the admin API.
 * `maxItems` bounds the work of one run (the admin API passes a smaller number to answer within 29 s).
 */
export function runJob<N extends JobName>(deps: JobDeps<N>, name: N, maxItems = SCHEDULED_BATCH): JobResult {
  // `JOBS[name]` needs the deps of job `name`, which `JobDeps<N>` is; the compiler cannot see through the generic index.
  const run = JOBS[name] as (deps: JobDeps<N>, maxItems: number) => JobResult;
  return run(deps, maxItems);
}
