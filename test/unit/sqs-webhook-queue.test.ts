import { SQSClient, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { SqsWebhookQueue } from '../../functions/release-notes/adapters/sqs-webhook-queue';
import type { WebhookMessage } from '../../functions/release-notes/app/release-notes-ports';

const URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/webhooks';
const sqs = mockClient(SQSClient);
afterEach(() => sqs.reset());

const messages = (n: number): WebhookMessage[] =>
  Array.from({ length: n }, (_, i) => ({ type: 'deliver', subscriptionId: `s${i}`, periodId: 'p', revision: 'r', attempt: 1 }));

describe('SqsWebhookQueue', () => {
  it('sends in SendMessageBatch calls of 10 with the delay on every entry', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    await new SqsWebhookQueue(new SQSClient({ region: 'eu-west-1' }), URL).send(messages(25), 3);
    const calls = sqs.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input);
    expect(calls.map((c) => c.Entries!.length).sort()).toEqual([10, 10, 5]);
    for (const c of calls) {
      expect(c.QueueUrl).toBe(URL);
      for (const e of c.Entries!) expect(e.DelaySeconds).toBe(3);
    }
    const bodies = calls.flatMap((c) => c.Entries!.map((e) => JSON.parse(e.MessageBody!).subscriptionId)).sort();
    expect(bodies).toEqual(
      messages(25)
        .map((m) => (m as { subscriptionId: string }).subscriptionId)
        .sort(),
    );
  });

  it('sends the entries a call reports as failed again', async () => {
    sqs
      .on(SendMessageBatchCommand)
      .resolvesOnce({ Failed: [{ Id: '3', SenderFault: false, Code: 'InternalError' }] })
      .resolves({ Failed: [] });
    await new SqsWebhookQueue(new SQSClient({ region: 'eu-west-1' }), URL).send(messages(10));
    const calls = sqs.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.Entries!.map((e) => JSON.parse(e.MessageBody!).subscriptionId)).toEqual(['s3']);
  });

  it('sends nothing for no messages, and refuses without a queue URL', async () => {
    await new SqsWebhookQueue(new SQSClient({ region: 'eu-west-1' }), URL).send([]);
    expect(sqs.calls()).toHaveLength(0);
    await expect(new SqsWebhookQueue(new SQSClient({ region: 'eu-west-1' }), undefined).send(messages(1))).rejects.toThrow(/WEBHOOKS_QUEUE_URL/);
  });
});
