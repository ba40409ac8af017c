/**
 * The webhooks queue consumer: fan-out messages (queue one delivery per matching subscription, and a
 * continuation message before the invocation runs out of time) and delivery attempts (one POST each,
 * the next attempt queued with a delay on a retryable failure). The records of a batch run
 * concurrently. A delivery that failed at the receiver is a finished attempt, not a failed record:
 * only infrastructure errors (table, KMS, queue) are reported as partial batch failures.
 */
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import { deliverWebhook } from '../app/deliver-webhook';
import { fanOutReleasePeriod } from '../app/fan-out-release-period';
import { MAX_ATTEMPTS } from '../domain/webhook-delivery';
import type { HttpDeps } from '../http/kit';
import type { WebhookMessage } from '../ports';
import { productionDeps } from '../wiring';
import type { QueueHandler } from './jobs-worker.handler';

/** A fan-out stops queueing pages this long before the function's timeout and continues in a new message. */
export const FANOUT_SAFETY_MS = 15_000;

const message = z.discriminatedUnion('type', [
  z.object({ type: z.literal('fan-out'), periodId: z.string().min(1), revision: z.string().min(1), cursor: z.string().optional() }),
  z.object({
    type: z.literal('deliver'),
    subscriptionId: z.string().min(1),
    periodId: z.string().min(1),
    revision: z.string().min(1),
    attempt: z.number().int().min(1).max(MAX_ATTEMPTS),
  }),
]);

async function runMessage(deps: HttpDeps, msg: WebhookMessage, shouldYield: () => boolean): Promise<void> {
  if (msg.type === 'fan-out') {
    const result = await fanOutReleasePeriod(deps, { periodId: msg.periodId, revision: msg.revision, ...(msg.cursor ? { cursor: msg.cursor } : {}), shouldYield });
    if (result.cursor) await deps.webhookQueue.send([{ type: 'fan-out', periodId: msg.periodId, revision: msg.revision, cursor: result.cursor }]);
    deps.logger.info('webhook fan-out', { periodId: msg.periodId, scanned: result.scanned, enqueued: result.enqueued, continues: Boolean(result.cursor), superseded: Boolean(result.superseded) });
    return;
  }
  const { subscriptionId, periodId, revision, attempt } = msg;
  const result = await deliverWebhook(deps, { subscriptionId, periodId, revision, attempt });
  deps.logger.info('webhook delivery', {
    subscriptionId,
    periodId,
    attempt,
    outcome: result.outcome,
    ...('result' in result ? result.result : { reason: result.reason }),
  });
}

export const createHandler = (deps: HttpDeps): QueueHandler => {
  const core = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const deadline = Date.now() + context.getRemainingTimeInMillis() - FANOUT_SAFETY_MS;
    const shouldYield = () => Date.now() >= deadline;
    const settled = await Promise.allSettled(event.Records.map((record) => runMessage(deps, message.parse(JSON.parse(record.body)) as WebhookMessage, shouldYield)));
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    settled.forEach((s, i) => {
      if (s.status === 'fulfilled') return;
      const messageId = event.Records[i]!.messageId;
      deps.logger.error('webhook message failed; it will be retried', { messageId, error: s.reason as Error });
      batchItemFailures.push({ itemIdentifier: messageId });
    });
    return { batchItemFailures };
  };
  return middy(core).use(injectLambdaContext(deps.logger, { logEvent: false })) as unknown as QueueHandler;
};

let built: QueueHandler | undefined;
export const handler: QueueHandler = (event, context) => {
  built ??= createHandler(productionDeps());
  return built(event, context);
};
