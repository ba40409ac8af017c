/**
 * The webhooks queue consumer: fan-out messages (queue one delivery per matching subscription, and a
 * continuation message before the invocation runs out of time) and delivery attempts (one POST each,
 * the next attempt queued with a delay on a retryable failure). The records of a batch run
 * concurrently. A delivery that failed at the receiver is a finished attempt, not a failed record:
 * only a body that is not a webhook message (poison) and infrastructure errors (table, KMS, queue) are
 * reported as partial batch failures.
 */
import { deliverWebhook } from '../app/deliver-webhook';
import { fanOutReleasePeriod } from '../app/fan-out-release-period';
import { releaseNotesProductionDeps, type WebhookWorkerDeps } from '../release-notes-wiring';
import type { WebhookMessage } from '../app/release-notes-ports';
import { lambdaQueueHandler, sqsConsumer, type QueueHandler } from '../../kernel/workers/queue-kit';
import { parseWebhookMessage } from './webhook-message';

/** A fan-out stops queueing pages this long before the function's timeout and continues in a new message. */
export const FANOUT_SAFETY_MS = 15_000;

async function runMessage(deps: WebhookWorkerDeps, msg: WebhookMessage, shouldYield: () => boolean): Promise<void> {
  if (msg.type === 'fan-out') {
    const result = await fanOutReleasePeriod(deps, {
      periodId: msg.periodId,
      revision: msg.revision,
      ...(msg.cursor ? { cursor: msg.cursor } : {}),
      shouldYield,
    });
    if (result.cursor) await deps.webhookQueue.send([{ type: 'fan-out', periodId: msg.periodId, revision: msg.revision, cursor: result.cursor }]);
    deps.logger.info('webhook fan-out', {
      periodId: msg.periodId,
      scanned: result.scanned,
      enqueued: result.enqueued,
      continues: Boolean(result.cursor),
      superseded: Boolean(result.superseded),
    });
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

export const createHandler = (deps: WebhookWorkerDeps): QueueHandler =>
  sqsConsumer(deps, {
    name: 'webhook',
    concurrent: true,
    parse: parseWebhookMessage,
    handle: (msg, _record, context) => {
      const deadline = Date.now() + context.getRemainingTimeInMillis() - FANOUT_SAFETY_MS;
      return runMessage(deps, msg, () => Date.now() >= deadline);
    },
  });

export const handler = lambdaQueueHandler(createHandler, releaseNotesProductionDeps);
