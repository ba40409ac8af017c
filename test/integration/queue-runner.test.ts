/**
 * The local queue runner reads a handler's answer as Lambda's SQS event source mapping does, on the
 * real SQS emulator: a handler that throws fails its whole batch and the runner carries on; a record
 * that keeps failing reaches the DLQ after maxReceiveCount under its own message id, while the rest
 * of its batch completes once; a failure naming no message of the batch fails the whole batch.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { Message } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqsClient } from '../../functions/kernel/adapters/aws-queue-clients';
import { LOCAL_CREDENTIALS, LOCAL_REGION, startBackends, type Backends } from '../../functions/local/backends';
import { consumeQueue, failedMessageIds, type QueueRunner } from '../../functions/local/queue-runner';
import type { QueueHandler } from '../../functions/kernel/workers/queue-kit';
import type { QueueDef } from '../../functions/kernel/route-vocabulary';

const MAX_RECEIVES = 2;
const DEF: QueueDef = { id: 'jobs', handler: 'runner-test', batchSize: 10, timeoutSeconds: 5, maxReceiveCount: MAX_RECEIVES, grants: [] };

let dir: string;
let backends: Backends;
let sqs: SQSClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'queue-runner-'));
  backends = await startBackends(dir, false);
  sqs = createSqsClient({ region: LOCAL_REGION, endpoints: backends.endpoints, credentials: LOCAL_CREDENTIALS });
});

afterAll(async () => {
  sqs?.destroy();
  await backends?.stop();
  rmSync(dir, { recursive: true, force: true });
});

let queues = 0;
/** A fresh queue with a DLQ and the redrive the bootstrap gives every queue (a smaller maxReceiveCount). */
async function queuePair(): Promise<{ url: string; dlq: string }> {
  const name = `runner-${++queues}`;
  const dlq = (await sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }))).QueueUrl!;
  const arn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq, AttributeNames: ['QueueArn'] }))).Attributes!.QueueArn;
  const url = (
    await sqs.send(
      new CreateQueueCommand({
        QueueName: name,
        Attributes: { VisibilityTimeout: '30', RedrivePolicy: JSON.stringify({ deadLetterTargetArn: arn, maxReceiveCount: MAX_RECEIVES }) },
      }),
    )
  ).QueueUrl!;
  return { url, dlq };
}

async function send(url: string, bodies: readonly string[]): Promise<Map<string, string>> {
  const res = await sqs.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: bodies.map((MessageBody, i) => ({ Id: String(i), MessageBody })) }));
  return new Map((res.Successful ?? []).map((s) => [bodies[Number(s.Id)]!, s.MessageId!]));
}

async function waitFor(what: string, ok: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function receiveAll(url: string): Promise<Message[]> {
  return (await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }))).Messages ?? [];
}

describe('the local queue runner', () => {
  let runner: QueueRunner | undefined;
  afterAll(() => runner?.stop());

  it('survives a handler that throws: the batch comes back whole and is handled once the handler recovers', async () => {
    const { url, dlq } = await queuePair();
    const ids = await send(url, ['a', 'b']);
    const seen: string[] = [];
    const handled = new Set<string>();
    let calls = 0;
    const logged: Record<string, unknown>[] = [];
    // Not async: the first call throws before it returns a promise.
    const handler = ((event: SQSEvent) => {
      seen.push(...event.Records.map((r) => r.body));
      if (calls++ === 0) throw new Error('handler bug');
      for (const r of event.Records) handled.add(r.body);
      return Promise.resolve({ batchItemFailures: [] });
    }) as QueueHandler;
    runner = consumeQueue(sqs, handler, DEF, url, (line) => logged.push(line as Record<string, unknown>));
    await waitFor('both messages handled', () => handled.size === 2);
    await runner.stop();
    runner = undefined;

    expect(logged).toContainEqual(expect.objectContaining({ level: 'ERROR', message: 'queue handler threw; whole batch retried', queue: 'jobs' }));
    for (const body of ['a', 'b']) expect(seen.filter((s) => s === body).length, body).toBeGreaterThanOrEqual(2);
    expect(ids.size).toBe(2);
    expect(await receiveAll(url)).toEqual([]);
    expect(await receiveAll(dlq)).toEqual([]);
  });

  it('dead-letters a record that keeps failing after maxReceiveCount, under its message id; its neighbour completes once', async () => {
    const { url, dlq } = await queuePair();
    const ids = await send(url, ['poison', 'fine']);
    const receives = new Map<string, number>();
    const handler: QueueHandler = async (event) => {
      for (const r of event.Records) receives.set(r.body, (receives.get(r.body) ?? 0) + 1);
      return { batchItemFailures: event.Records.filter((r) => r.body === 'poison').map((r) => ({ itemIdentifier: r.messageId })) };
    };
    // The failed record comes back at once (the first case waits out the default retry visibility).
    runner = consumeQueue(sqs, handler, DEF, url, () => undefined, { retryVisibilitySeconds: 0 });
    let dead: Message[] = [];
    await waitFor('the poison message in the DLQ', async () => (dead = await receiveAll(dlq)).length > 0, 20_000);
    await runner.stop();
    runner = undefined;

    expect(dead.map((m) => [m.MessageId, m.Body])).toEqual([[ids.get('poison'), 'poison']]);
    expect(receives.get('poison')).toBe(MAX_RECEIVES);
    expect(receives.get('fine')).toBe(1);
    expect(await receiveAll(url)).toEqual([]);
  });
});

describe('reading a batch response', () => {
  const messages: Message[] = [{ MessageId: 'm1' }, { MessageId: 'm2' }];
  const ids = (r: Partial<SQSBatchResponse> | null | undefined) => [...failedMessageIds(messages, r)].sort();

  it('takes no response or no failure list as success, and a named failure as that record only', () => {
    expect(ids(undefined)).toEqual([]);
    expect(ids(null)).toEqual([]);
    expect(ids({})).toEqual([]);
    expect(ids({ batchItemFailures: [] })).toEqual([]);
    expect(ids({ batchItemFailures: [{ itemIdentifier: 'm2' }] })).toEqual(['m2']);
  });

  it('fails the whole batch when a failure names no message of it', () => {
    expect(ids({ batchItemFailures: [{ itemIdentifier: 'other' }] })).toEqual(['m1', 'm2']);
    expect(ids({ batchItemFailures: [{ itemIdentifier: '' }] })).toEqual(['m1', 'm2']);
    expect(ids({ batchItemFailures: [{ itemIdentifier: null as unknown as string }] })).toEqual(['m1', 'm2']);
  });
});
