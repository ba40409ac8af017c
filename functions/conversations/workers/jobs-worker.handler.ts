/**
 * The jobs queue consumer. Each record is one job message; a body that is not a known job is poison
 * and fails alone, a job that fails is reported as a partial batch failure (retried, then
 * dead-lettered), never caught and dropped. Long work continues through a continuation message
 * instead of running past the function timeout.
 */
import * as z from 'zod/mini';
import { processAppDeletion } from '../app/process-app-deletion';
import { conversationQueueProductionDeps, type LifecycleQueueDeps } from '../conversation-wiring';
import type { JobMessage } from '../../kernel/app/kernel-ports';
import { jsonBody, lambdaQueueHandler, sqsConsumer, type QueueHandler } from '../../kernel/workers/queue-kit';

// One job type so far: a plain object names the expected type in its error, where a union would only say "Invalid input".
const jobMessage = z.object({ type: z.literal('app-deletion'), appId: z.uuid() });

/** Typed against the port, so the schema cannot drift from what the senders write. */
export const parseJobMessage: (body: string) => JobMessage = jsonBody(jobMessage);

async function runMessage(deps: LifecycleQueueDeps, job: JobMessage): Promise<void> {
  const { done, removed } = await processAppDeletion(deps, { appId: job.appId });
  deps.logger.info('app deletion batch', { appId: job.appId, removed, done });
  if (!done) await deps.jobs.send(job);
}

export const createHandler = (deps: LifecycleQueueDeps): QueueHandler =>
  sqsConsumer(deps, { name: 'job', concurrent: false, parse: parseJobMessage, handle: (job) => runMessage(deps, job) });

export const handler = lambdaQueueHandler(createHandler, conversationQueueProductionDeps);
