/**
 * The webhooks queue: SendMessageBatch with 10 entries per call (the SQS maximum), a few calls in
 * flight at once, and the entries a call reports as failed sent again with a short backoff.
 */
import { SendMessageBatchCommand, type SendMessageBatchRequestEntry, type SQSClient } from '@aws-sdk/client-sqs';
import type { WebhookMessage, WebhookQueue } from '../app/release-notes-ports';

const BATCH = 10;
const IN_FLIGHT = 8;
const MAX_TRIES = 5;

export class SqsWebhookQueue implements WebhookQueue {
  constructor(
    private readonly sqs: SQSClient,
    /** Undefined on functions without the `webhooks:send` grant, which never send. */
    private readonly queueUrl: string | undefined,
  ) {}

  async send(messages: readonly WebhookMessage[], delaySeconds = 0): Promise<void> {
    if (messages.length === 0) return;
    const queueUrl = this.queueUrl;
    if (!queueUrl) throw new Error('WEBHOOKS_QUEUE_URL is not set: this function has no webhooks:send grant');
    const batches: SendMessageBatchRequestEntry[][] = [];
    for (let i = 0; i < messages.length; i += BATCH) {
      batches.push(messages.slice(i, i + BATCH).map((m, j) => ({ Id: String(j), MessageBody: JSON.stringify(m), DelaySeconds: delaySeconds })));
    }
    let next = 0;
    const worker = async () => {
      while (next < batches.length) await this.sendBatch(queueUrl, batches[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, batches.length) }, worker));
  }

  private async sendBatch(queueUrl: string, entries: SendMessageBatchRequestEntry[]): Promise<void> {
    let pending = entries;
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > MAX_TRIES) throw new Error(`SendMessageBatch kept failing for ${pending.length} entries`);
      if (attempt > 1) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
      const res = await this.sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: pending }));
      const failed = new Set((res.Failed ?? []).map((f) => f.Id));
      pending = pending.filter((e) => failed.has(e.Id));
    }
  }
}
