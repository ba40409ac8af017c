/**
 * One release-note period fanned out to 10,000 subscriptions on the local platform: the webhooks
 * worker's fan-out message runs with a Lambda's 60 s budget (continuing in new messages if it has to)
 * until a delivery message for every matching subscription is queued. Measured: wall time, SQS calls
 * (counted in the SDK middleware), subscription pages read, invocations. Deliveries themselves are not
 * run (the queue runners are off), so only the enqueue path is timed.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import { GetQueueAttributesCommand, PurgeQueueCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Context, SQSEvent } from 'aws-lambda';
import { subscriptionItems } from '../functions/release-notes/adapters/dynamo-subscription-store';
import { buildPeriod, type ChangeKind } from '../functions/release-notes/domain/release-notes';
import { hashSecret } from '../functions/release-notes/domain/webhook-subscription';
import { startPlatform } from '../functions/local/local-platform';
import type { WebhookMessage, WebhookQueue } from '../functions/release-notes/app/release-notes-ports';
import { createHandler } from '../functions/release-notes/workers/webhooks-worker.handler';
import { QUEUES } from '../functions/workers';
import { table } from './stats';

const SUBSCRIPTIONS = 10_000;

function record(message: WebhookMessage, n: number): SQSEvent['Records'][number] {
  return {
    messageId: `bench-${n}`,
    receiptHandle: 'r',
    body: JSON.stringify(message),
    attributes: {} as SQSEvent['Records'][number]['attributes'],
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:000000000000:webhooks',
    awsRegion: 'local',
  };
}

async function seed(db: DynamoDBDocumentClient, tableName: string, count: number, categoryOf: (i: number) => ChangeKind): Promise<void> {
  const now = Date.now() * 1000;
  const items = Array.from({ length: count }, (_, i) => {
    const secret = `whsec_${String(i).padStart(40, '0')}`;
    return subscriptionItems({
      id: randomUUID(),
      // Loopback: the production policy refuses it, so nothing is ever sent even if a delivery ran.
      callbackUrl: `https://127.0.0.1/bench/${i}`,
      areas: [],
      categories: [categoryOf(i)],
      isActive: true,
      secretHash: hashSecret(secret),
      secretLast4: secret.slice(-4),
      sealedSecret: 'bench',
      createdAtUs: now + i,
      updatedAtUs: now + i,
    });
  }).flat();
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      let requests = batches[next++]!.map((Item) => ({ PutRequest: { Item } }));
      while (requests.length) {
        const res = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
        requests = (res.UnprocessedItems?.[tableName] ?? []) as typeof requests;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

export async function benchWebhookFanout(): Promise<void> {
  const rows: Record<string, string | number>[] = [];
  for (const scenario of [
    { name: 'all match', categoryOf: (): ChangeKind => 'fix' },
    { name: '1 in 10 match', categoryOf: (i: number): ChangeKind => (i % 10 === 0 ? 'fix' : 'other') },
  ]) {
    const dataDir = mkdtempSync(join(tmpdir(), 'platform-bench-'));
    const p = await startPlatform({ dataDir, persist: false, timers: false, seed: false, queueRunners: false, logger: new Logger({ logLevel: 'SILENT' }) });
    try {
      const store = p.deps.subscriptions as unknown as { db: DynamoDBDocumentClient; table: string };
      const queue = p.deps.webhookQueue as unknown as { sqs: SQSClient; queueUrl: string };
      await seed(store.db, store.table, SUBSCRIPTIONS, scenario.categoryOf);
      const period = buildPeriod(
        {
          periodStartUs: Date.UTC(2026, 10, 1) * 1000,
          periodEndUs: Date.UTC(2026, 10, 15) * 1000,
          markdown: '',
          items: [{ title: 'Bench', body: '', kind: 'fix' }],
        },
        Date.now() * 1000,
      );
      await p.deps.releaseNotes.put(period);

      const counts = new Map<string, number>();
      const count = (name: string) => (next: (a: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
        counts.set(`${name}:${context.commandName}`, (counts.get(`${name}:${context.commandName}`) ?? 0) + 1);
        return next(args);
      };
      queue.sqs.middlewareStack.add(count('sqs') as never, { step: 'initialize', name: 'bench-count' });
      store.db.middlewareStack.add(count('dynamodb') as never, { step: 'initialize', name: 'bench-count' });

      // Continuations are run here, one after another, as the next invocations would be.
      const pending: WebhookMessage[] = [{ type: 'fan-out', periodId: period.id, revision: period.revision }];
      const intercepting: WebhookQueue = {
        send: async (messages, delay) => {
          pending.push(...messages.filter((m) => m.type === 'fan-out'));
          await p.deps.webhookQueue.send(
            messages.filter((m) => m.type !== 'fan-out'),
            delay,
          );
        },
      };
      const handler = createHandler({ ...p.deps, webhookQueue: intercepting });
      const timeoutMs = QUEUES.find((q) => q.id === 'webhooks')!.timeoutSeconds * 1000;
      let invocations = 0;
      const t0 = performance.now();
      while (pending.length) {
        invocations++;
        const started = Date.now();
        const out = await handler({ Records: [record(pending.shift()!, invocations)] }, {
          getRemainingTimeInMillis: () => timeoutMs - (Date.now() - started),
          awsRequestId: `bench-${invocations}`,
          functionName: 'webhooks-worker',
        } as unknown as Context);
        if (out.batchItemFailures.length) throw new Error('fan-out failed');
      }
      const ms = performance.now() - t0;
      queue.sqs.middlewareStack.remove('bench-count');
      store.db.middlewareStack.remove('bench-count');

      const depth = await queue.sqs.send(new GetQueueAttributesCommand({ QueueUrl: queue.queueUrl, AttributeNames: ['ApproximateNumberOfMessages'] }));
      const queued = Number(depth.Attributes?.ApproximateNumberOfMessages ?? 0);
      const batchCalls = counts.get('sqs:SendMessageBatchCommand') ?? 0;
      const otherSqs = [...counts].filter(([k]) => k.startsWith('sqs:') && k !== 'sqs:SendMessageBatchCommand').reduce((n, [, v]) => n + v, 0);
      rows.push({
        scenario: scenario.name,
        subscriptions: SUBSCRIPTIONS,
        'deliveries queued': queued,
        'time to enqueue (ms)': ms.toFixed(0),
        'SendMessageBatch calls': batchCalls,
        'other SQS calls': otherSqs,
        'subscription pages (Query)': counts.get('dynamodb:QueryCommand') ?? 0,
        invocations,
      });
      await queue.sqs.send(new PurgeQueueCommand({ QueueUrl: queue.queueUrl })).catch(() => undefined);
    } finally {
      await p.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  table(rows);
}
