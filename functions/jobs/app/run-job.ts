import { checkoutRecoveryJob } from '../../acp/app/recover-checkout-completions';
import { fileCleanupJob } from '../../chat/app/manage-files';
import { deletionSweepJob } from '../../conversations/app/process-app-deletion';
import { emptySessionCleanupJob, retentionExpiryJob } from '../../conversations/app/run-retention-jobs';
import { usageRollupJob } from '../../conversations/app/roll-up-usage';
import { SCHEDULED_BATCH, type JobResult } from '../../kernel/app/scheduled-job';
import type { JobName } from '../../workers';

type DepsOf<F extends (deps: never, maxItems: number) => unknown> = Parameters<F>[0];

/**
 * Every scheduled job by name: the one place a job name meets its area's use case. A job's Lambda
 * runs its own area's job function with only that job's deps (ADR 0014), so its bundle carries no
 * other job's clients; the admin API and the local timers run any of them through `runJob`.
 */
export const JOBS = {
  'retention-expiry': retentionExpiryJob,
  'empty-session-cleanup': emptySessionCleanupJob,
  'deletion-sweep': deletionSweepJob,
  'file-cleanup': fileCleanupJob,
  'checkout-recovery': checkoutRecoveryJob,
  'usage-rollup': usageRollupJob,
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
