import { SQSClient, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { SqsOrderEventQueue } from '../../functions/acp/adapters/sqs-order-event-queue';
import type { OrderEventMessage } from '../../functions/acp/app/acp-ports';

const URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/order-events';
const sqs = mockClient(SQSClient);
afterEach(() => sqs.reset());

const messages = (n: number): OrderEventMessage[] => Array.from({ length: n }, (_, i) => ({ type: 'order-events', sessionId: `s${i}` }));

describe('SqsOrderEventQueue', () => {
  it('sends in SendMessageBatch calls of 10 with the delay on every entry, at most 900 s', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    await new SqsOrderEventQueue(new SQSClient({ region: 'eu-west-1' }), URL).send(messages(12), 10);
    await new SqsOrderEventQueue(new SQSClient({ region: 'eu-west-1' }), URL).send(messages(1), 3600);
    const calls = sqs.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input);
    expect(calls.map((c) => c.Entries!.length)).toEqual([10, 2, 1]);
    expect(calls.every((c) => c.QueueUrl === URL)).toBe(true);
    expect(calls.slice(0, 2).flatMap((c) => c.Entries!.map((e) => e.DelaySeconds))).toEqual(Array(12).fill(10));
    expect(calls[2]!.Entries![0]!.DelaySeconds).toBe(900);
    expect(JSON.parse(calls[2]!.Entries![0]!.MessageBody!)).toEqual({ type: 'order-events', sessionId: 's0' });
  });

  it('fails a send SQS refused an entry of (the recovery job asks again)', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Failed: [{ Id: '0', SenderFault: false, Code: 'InternalError' }] });
    await expect(new SqsOrderEventQueue(new SQSClient({ region: 'eu-west-1' }), URL).send(messages(1))).rejects.toThrow(/InternalError/);
  });

  it('sends nothing for no messages, and refuses without a queue URL (a function without the grant)', async () => {
    await new SqsOrderEventQueue(new SQSClient({ region: 'eu-west-1' }), URL).send([]);
    expect(sqs.calls()).toHaveLength(0);
    await expect(new SqsOrderEventQueue(new SQSClient({ region: 'eu-west-1' }), undefined).send(messages(1))).rejects.toThrow(
      /ORDER_EVENTS_QUEUE_URL is not set: this function has no order-events:send grant/,
    );
  });
});
