/**
 * Fan-out in bounded invocations: a fan-out message that runs out of time queues what it has read and
 * hands the rest of the pass to a continuation message, which the same worker picks up. Every
 * matching subscription gets its delivery exactly once; non-matching ones get none.
 */
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Context, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionItems } from '../../functions/release-notes/adapters/dynamo-subscription-store';
import { FANOUT_PAGE_SIZE } from '../../functions/release-notes/app/fan-out-release-period';
import { buildPeriod } from '../../functions/release-notes/domain/release-notes';
import { parseIsoToMicros } from '../../functions/kernel/domain/time';
import { hashSecret, type WebhookSubscription } from '../../functions/release-notes/domain/webhook-subscription';
import type { WebhookMessage, WebhookQueue } from '../../functions/release-notes/app/release-notes-ports';
import { FANOUT_SAFETY_MS, createHandler } from '../../functions/release-notes/workers/webhooks-worker.handler';
import { FakeResolver } from '../support/fake-resolver';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { tableOf } from '../support/store';
import { RECEIVER_HOST, WebhookReceiver, waitFor } from '../support/webhook-receiver';

const TOTAL = FANOUT_PAGE_SIZE * 2 + 200;
const MATCHING = 12;
let receiver: WebhookReceiver;
let p: TestPlatform;

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  p = await startTestPlatform({
    resolver: new FakeResolver().set(RECEIVER_HOST, ['127.0.0.1']),
    webhookNetwork: { allowAddresses: ['127.0.0.1'], trustedCaPem: receiver.caPem },
  });
});

afterAll(async () => {
  await p?.stop();
  await receiver?.stop();
});

describe('fan-out', () => {
  it('continues through a continuation message when the invocation runs out of time, and delivers to each match once', async () => {
    const t = tableOf(p);
    const now = Date.now() * 1000;
    const subs: WebhookSubscription[] = [];
    for (let i = 0; i < TOTAL; i++) {
      const id = randomUUID();
      // Matches spread over every page: every 100th subscription wants fixes, the rest only `other`.
      const matching = i % 100 === 0 && subs.filter((s) => s.categories.includes('fix')).length < MATCHING;
      const secret = `whsec_${String(i).padStart(40, '0')}`;
      subs.push({
        id,
        callbackUrl: receiver.url(`/fan/${matching ? 'match' : 'no'}/${i}`),
        areas: [],
        categories: matching ? ['fix'] : ['other'],
        isActive: true,
        secretHash: hashSecret(secret),
        secretLast4: secret.slice(-4),
        sealedSecret: matching ? await p.deps.secrets.seal(secret, { subscriptionId: id }) : 'unused',
        createdAtUs: now + i,
        updatedAtUs: now + i,
      });
    }
    const items = subs.flatMap(subscriptionItems);
    for (let i = 0; i < items.length; i += 25) {
      await t.db.send(new BatchWriteCommand({ RequestItems: { [t.table]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
    }
    const matches = subs.filter((s) => s.categories.includes('fix'));
    expect(matches).toHaveLength(MATCHING);

    // The period is stored directly, so that only the fan-out invoked below (and its continuation) runs.
    const period = buildPeriod(
      {
        periodStartUs: parseIsoToMicros('2026-04-01T00:00:00Z')!,
        periodEndUs: parseIsoToMicros('2026-04-02T00:00:00Z')!,
        markdown: '',
        items: [{ title: 'Fan-out', body: '', kind: 'fix' }],
      },
      now,
    );
    await p.deps.releaseNotes.put(period);

    // An invocation with just past the safety margin left: it handles one page, then must yield.
    // The real queue, with a record of what this invocation sent.
    const sent: WebhookMessage[] = [];
    const recording: WebhookQueue = {
      send: async (messages, delay) => {
        sent.push(...messages);
        await p.deps.webhookQueue.send(messages, delay);
      },
    };
    const handler = createHandler({ ...p.deps, webhookQueue: recording });
    const event: SQSEvent = {
      Records: [
        {
          messageId: 'fan-out-1',
          receiptHandle: 'r',
          body: JSON.stringify({ type: 'fan-out', periodId: period.id, revision: period.revision }),
          attributes: {} as SQSEvent['Records'][number]['attributes'],
          messageAttributes: {},
          md5OfBody: '',
          eventSource: 'aws:sqs',
          eventSourceARN: 'arn:aws:sqs:local:000000000000:webhooks',
          awsRegion: 'local',
        },
      ],
    };
    const result = await handler(event, {
      getRemainingTimeInMillis: () => FANOUT_SAFETY_MS + 1,
      awsRequestId: 'test',
      functionName: 'webhooks-worker',
    } as Context);
    expect(result).toEqual({ batchItemFailures: [] });
    // Only the first page's matches came from this invocation; the rest follow from the continuation.
    const firstPage = matches.filter((s) => subs.indexOf(s) < FANOUT_PAGE_SIZE);
    expect(firstPage.length).toBeLessThan(MATCHING);
    expect(
      sent
        .filter((m) => m.type === 'deliver')
        .map((m) => (m as { subscriptionId: string }).subscriptionId)
        .sort(),
    ).toEqual(firstPage.map((s) => s.id).sort());
    expect(sent.filter((m) => m.type === 'fan-out')).toEqual([{ type: 'fan-out', periodId: period.id, revision: period.revision, cursor: expect.any(String) }]);

    await waitFor(() => receiver.received.filter((r) => r.path.startsWith('/fan/match/')).length >= MATCHING, 20_000, 'every matching delivery');
    await p.drainQueues();
    await new Promise((r) => setTimeout(r, 500));
    const got = receiver.received
      .filter((r) => r.path.startsWith('/fan/'))
      .map((r) => r.path)
      .sort();
    expect(got).toEqual(matches.map((s) => new URL(s.callbackUrl).pathname).sort());
  }, 60_000);
});
