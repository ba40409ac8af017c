/** The lifecycle functions that queue app deletions (the jobs worker, the deletion sweep): the lifecycle deps and the jobs queue. */
import type { JobQueue } from '../../platform/ports/platform-ports';
import { buildJobQueue } from '../../platform/wiring/job-queue-wiring';
import { lifecycleProductionDepsWith, type LifecycleDeps } from './lifecycle-wiring';

export type LifecycleQueueDeps = LifecycleDeps & { readonly jobs: JobQueue };

export const lifecycleQueueProductionDeps: () => LifecycleQueueDeps = lifecycleProductionDepsWith((opts) => ({ jobs: buildJobQueue(opts) }));
