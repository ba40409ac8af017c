/**
 * Queue consumers and scheduled jobs: the non-HTTP entry points. Like the route table, the CDK stacks
 * and the local process both loop over these. No runtime imports.
 */
import type { Grant } from './routes';

export interface QueueDef {
  readonly id: 'jobs';
  /** Module under functions/queue, without `.handler.ts`. */
  readonly handler: string;
  readonly batchSize: number;
  readonly timeoutSeconds: number;
  readonly maxReceiveCount: number;
  readonly grants: readonly Grant[];
}

export type JobName = 'retention-expiry' | 'empty-session-cleanup' | 'app-deletion-sweep';

export interface ScheduleDef {
  readonly id: JobName;
  /** Module under functions/jobs, without `.handler.ts`. */
  readonly handler: string;
  /** EventBridge Scheduler expression on AWS. */
  readonly expression: string;
  /** Interval of the local timer. */
  readonly localEveryMs: number;
  readonly timeoutSeconds: number;
  readonly grants: readonly Grant[];
}

export const QUEUES: readonly QueueDef[] = [
  { id: 'jobs', handler: 'jobs-worker', batchSize: 5, timeoutSeconds: 120, maxReceiveCount: 5, grants: ['table:read', 'table:write', 'jobs:send'] },
];

export const SCHEDULES: readonly ScheduleDef[] = [
  { id: 'retention-expiry', handler: 'retention-expiry', expression: 'rate(1 hour)', localEveryMs: 60 * 60_000, timeoutSeconds: 300, grants: ['table:read', 'table:write'] },
  { id: 'empty-session-cleanup', handler: 'empty-session-cleanup', expression: 'rate(1 hour)', localEveryMs: 60 * 60_000, timeoutSeconds: 300, grants: ['table:read', 'table:write'] },
  { id: 'app-deletion-sweep', handler: 'app-deletion-sweep', expression: 'rate(10 minutes)', localEveryMs: 10 * 60_000, timeoutSeconds: 60, grants: ['table:read', 'jobs:send'] },
];
