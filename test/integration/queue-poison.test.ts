/**
 * A poison message on the running local platform: sent to the jobs queue beside a valid job, it
 * fails alone on every receive while the valid job completes once, then lands in the jobs DLQ under
 * the message id its poison lines carry (how an operator finds a dead letter's reason).
 */
import { randomUUID } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import { GetQueueUrlCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOrg } from '../../functions/tenancy/app/create-org';
import { createApp } from '../../functions/tenancy/app/manage-apps';
import { QUEUES } from '../../functions/workers';
import { localResources } from '../support/lambda-bundle';
import { startTestPlatform, type TestPlatform } from '../support/platform';

const logger = new Logger({ serviceName: 'queue-poison-e2e', logLevel: 'SILENT' });
const errors = vi.spyOn(logger, 'error');
const infos = vi.spyOn(logger, 'info');
let p: TestPlatform;
let sqs: SQSClient;

beforeAll(async () => {
  // A failed message comes back at once: the receives it takes, not their spacing, are under test.
  p = await startTestPlatform({ logger, retryVisibilitySeconds: 0 });
  const { awsEnv } = await localResources(p);
  sqs = new SQSClient({
    region: awsEnv.AWS_REGION,
    endpoint: awsEnv.AWS_ENDPOINT_URL_SQS,
    credentials: { accessKeyId: awsEnv.AWS_ACCESS_KEY_ID!, secretAccessKey: awsEnv.AWS_SECRET_ACCESS_KEY! },
  });
});

afterAll(async () => {
  sqs?.destroy();
  await p?.stop();
});

async function waitFor(what: string, ok: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('a poison job on the local platform', () => {
  it('fails alone on each receive, lets the valid job complete once, and ends in the jobs DLQ under its message id', async () => {
    const org = await createOrg(p.deps, { name: 'Poison Org', plan: 'paid' });
    const app = await createApp(p.deps, { orgId: org.id, name: 'Poison App' });
    await p.deps.apps.markDeleted(app.id, p.deps.clock.nowUs());
    const { jobsQueueUrl } = await localResources(p);
    const dlqUrl = (await sqs.send(new GetQueueUrlCommand({ QueueName: 'jobs-dlq' }))).QueueUrl!;
    const poisonBody = `{"type":"app-deletion","appId":"${randomUUID()}"`;

    const poisonId = (await sqs.send(new SendMessageCommand({ QueueUrl: jobsQueueUrl, MessageBody: poisonBody }))).MessageId!;
    await sqs.send(new SendMessageCommand({ QueueUrl: jobsQueueUrl, MessageBody: JSON.stringify({ type: 'app-deletion', appId: app.id }) }));

    await waitFor('the valid job', async () => !(await p.deps.apps.listPendingDeletion(100)).some((a) => a.id === app.id), 10_000);
    // maxReceiveCount receives, back to back (no retry visibility timeout here), then the redrive on the next receive.
    let dead: Message[] = [];
    await waitFor(
      'the poison message in the jobs DLQ',
      async () => {
        dead = (await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlqUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }))).Messages ?? [];
        return dead.length > 0;
      },
      25_000,
    );

    expect(dead.map((m) => [m.MessageId, m.Body])).toEqual([[poisonId, poisonBody]]);
    const poisonLines = errors.mock.calls.map(([, extra]) => extra as Record<string, unknown>).filter((e) => e?.poison === true);
    const maxReceiveCount = QUEUES.find((q) => q.id === 'jobs')!.maxReceiveCount;
    expect(poisonLines).toEqual(
      Array.from({ length: maxReceiveCount }, () => ({ messageId: poisonId, consumer: 'job', poison: true, reason: expect.stringMatching(/^not JSON/) })),
    );
    expect(infos.mock.calls.filter(([m, extra]) => m === 'app deletion batch' && (extra as { appId?: string }).appId === app.id)).toHaveLength(1);
  }, 45_000);
});
