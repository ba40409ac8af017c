/**
 * The jobs queue consumer. Each record is one job message; a failed record is reported as a partial
 * batch failure (retried, then dead-lettered), never caught and dropped. Long work continues through a
 * continuation message instead of running past the function timeout.
 */
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { processAppDeletion } from '../app/process-app-deletion';
import type { HttpDeps } from '../http/kit';
import type { JobMessage } from '../ports';
import { productionDeps } from '../wiring';

export type QueueHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

async function runMessage(deps: HttpDeps, job: JobMessage): Promise<void> {
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

export const createHandler = (deps: HttpDeps): QueueHandler => {
  const core = async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      try {
        await runMessage(deps, JSON.parse(record.body) as JobMessage);
      } catch (err) {
        deps.logger.error('job message failed; it will be retried', { messageId: record.messageId, error: err as Error });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  };
  return middy(core).use(injectLambdaContext(deps.logger, { logEvent: false })) as unknown as QueueHandler;
};

let built: QueueHandler | undefined;
export const handler: QueueHandler = (event, context) => {
  built ??= createHandler(productionDeps());
  return built(event, context);
};
