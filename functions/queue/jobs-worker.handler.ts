/**
 * The jobs queue consumer. Each record is one job message; a failed record is reported as a partial
 * batch failure (retried, then dead-lettered), never caught and dropped. Long work continues through a
 * continuation message instead of running past the function timeout.
 */
import { processAppDeletion } from '../app/process-app-deletion';
import { lifecycleQueueProductionDeps, type LifecycleQueueDeps } from '../wiring/lifecycle-queue-wiring';
import type { JobMessage } from '../ports/platform';
import { lambdaQueueHandler, sqsConsumer, type QueueHandler } from './queue-kit';

async function runMessage(deps: LifecycleQueueDeps, job: JobMessage): Promise<void> {
  switch (job.type) {
    case 'app-deletion': {
      const { done, removed } = await processAppDeletion(deps, { appId: job.appId });
      deps.logger.info('app deletion batch', { appId: job.appId, removed, done });
      if (!done) await deps.jobs.send(job);
      return;
    }
    default:
      throw new Error(`unknown job type ${(job as { type?: unknown }).type}`);
  }
}

export const createHandler = (deps: LifecycleQueueDeps): QueueHandler =>
  sqsConsumer(deps, { name: 'job', concurrent: false, handle: (record) => runMessage(deps, JSON.parse(record.body) as JobMessage) });

export const handler = lambdaQueueHandler(createHandler, lifecycleQueueProductionDeps);
