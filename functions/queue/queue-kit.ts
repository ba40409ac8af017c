/**
 * The one shape of every SQS consumer: each record is handled (concurrently or in order), a record that
 * throws is reported as a partial batch failure (retried, then dead-lettered) and logged, never caught
 * and dropped; Powertools logging without the event (message bodies are not for the logs).
 */
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { CoreDeps } from '../wiring/core-wiring';

export type QueueHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

export interface ConsumerOptions {
  /** What the log line of a failed record says. */
  readonly name: string;
  /** Handle the records of a batch at the same time (independent messages) or one after another. */
  readonly concurrent: boolean;
  readonly handle: (record: SQSRecord, context: Context) => Promise<void>;
}

export function sqsConsumer(deps: CoreDeps, opts: ConsumerOptions): QueueHandler {
  const core = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const outcomes: PromiseSettledResult<void>[] = [];
    if (opts.concurrent) outcomes.push(...(await Promise.allSettled(event.Records.map((r) => opts.handle(r, context)))));
    else for (const r of event.Records) outcomes.push(...(await Promise.allSettled([opts.handle(r, context)])));
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    outcomes.forEach((outcome, i) => {
      if (outcome.status === 'fulfilled') return;
      const messageId = event.Records[i]!.messageId;
      deps.logger.error(`${opts.name} message failed; it will be retried`, { messageId, error: outcome.reason as Error });
      batchItemFailures.push({ itemIdentifier: messageId });
    });
    return { batchItemFailures };
  };
  return middy(core).use(injectLambdaContext(deps.logger, { logEvent: false })) as unknown as QueueHandler;
}

/** The Lambda entry of a consumer module: production deps and the handler built on first call. */
export function lambdaQueueHandler<D extends CoreDeps>(factory: (deps: D) => QueueHandler, production: () => D): QueueHandler {
  let built: QueueHandler | undefined;
  return (event, context) => {
    built ??= factory(production());
    return built(event, context);
  };
}
