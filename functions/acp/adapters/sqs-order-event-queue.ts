/**
 * The order-events queue (SQS; fauxqs locally): SendMessageBatch with 10 entries per call, the delay on
 * every entry (SQS allows at most 900 s). An entry SQS reports as failed fails the send: the caller
 * leaves the delivery to the recovery job, which asks again.
 */
import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { OrderEventMessage, OrderEventQueue } from '../app/acp-ports';

const BATCH = 10;
const MAX_DELAY_SECONDS = 900;

export class SqsOrderEventQueue implements OrderEventQueue {
  constructor(
    private readonly sqs: SQSClient,
    /** Undefined on functions without the `order-events:send` grant, which never send. */
    private readonly queueUrl: string | undefined,
  ) {}

  async send(messages: readonly OrderEventMessage[], delaySeconds = 0): Promise<void> {
    if (messages.length === 0) return;
    const queueUrl = this.queueUrl;
    if (!queueUrl) throw new Error('ORDER_EVENTS_QUEUE_URL is not set: this function has no order-events:send grant');
    const delay = Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds)));
    for (let i = 0; i < messages.length; i += BATCH) {
      const entries = messages.slice(i, i + BATCH).map((m, j) => ({ Id: String(j), MessageBody: JSON.stringify(m), DelaySeconds: delay }));
      const res = await this.sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
      if (res.Failed?.length) throw new Error(`SendMessageBatch refused ${res.Failed.length} order-events messages (${res.Failed[0]!.Code})`);
    }
  }
}
