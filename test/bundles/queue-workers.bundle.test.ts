/**
 * POISON MESSAGES ON THE DEPLOYED BUNDLE: the jobs and webhooks workers, built exactly as a deployment
 * builds them and run in a child process with the environment the template gives their functions
 * (resources pointed at the local backends), fail a malformed record alone. The batch response names
 * only it, the valid record's effect is in the table (and its queue), the poison line carries the
 * message id and the reason but no body, and the `PoisonMessages` metric is emitted.
 */
import { randomUUID } from 'node:crypto';
import { functionDescription } from '../../lib/constructs/app-function';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../../functions/tenancy/app/create-org';
import { importSessions } from '../../functions/conversations/app/import-sessions';
import { createApp } from '../../functions/tenancy/app/manage-apps';
import { synthPlatform } from '../infra/platform-fixture';
import {
  buildLambdaBundle,
  invokeLambdaBundle,
  lambdaTimeoutMs,
  localFunctionEnvironment,
  localResources,
  type LambdaBundle,
  type LocalResources,
} from '../support/lambda-bundle';
import { seedRefusedDelivery } from '../support/refused-delivery';
import { startTestPlatform, type TestPlatform } from '../support/platform';

const JOBS = 'conversations/workers/jobs-worker';
const WEBHOOKS = 'release-notes/workers/webhooks-worker';
/** KMS has no local twin; the webhook below is refused by the SSRF check before any secret is opened. */

let p: TestPlatform;
let local: LocalResources;
let template: ReturnType<typeof synthPlatform>['apiTemplate'];
const bundles = new Map<string, LambdaBundle>();

beforeAll(async () => {
  const built = Promise.all([JOBS, WEBHOOKS].map(async (d) => bundles.set(d, await buildLambdaBundle(`functions/${d}.handler.ts`))));
  // Nothing but the bundles consumes the queues here.
  p = await startTestPlatform({ queueRunners: false });
  local = await localResources(p);
  template = synthPlatform('prod').apiTemplate;
  await built;
}, 60_000);

afterAll(async () => {
  for (const b of bundles.values()) b.remove();
  await p?.stop();
});

function envOf(description: string): Record<string, string> {
  return localFunctionEnvironment(template, functionDescription(description), local);
}

function record(body: string, queue: string): SQSRecord {
  return {
    messageId: randomUUID(),
    receiptHandle: randomUUID(),
    body,
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: String(Date.now()),
      SenderId: 'bundle-test',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${queue}`,
    awsRegion: 'us-east-1',
  };
}

async function invoke(description: string, records: SQSRecord[]) {
  const event: SQSEvent = { Records: records };
  return invokeLambdaBundle<SQSBatchResponse>(bundles.get(description)!.path, envOf(description), event, {
    timeoutMs: Math.min(lambdaTimeoutMs(template, functionDescription(description)), 20_000),
  });
}

/** The poison lines of an invocation, by message id. */
function poisonLines(logs: readonly Record<string, unknown>[]): Map<unknown, Record<string, unknown>[]> {
  const out = new Map<unknown, Record<string, unknown>[]>();
  for (const l of logs.filter((x) => x.poison === true)) out.set(l.messageId, [...(out.get(l.messageId) ?? []), l]);
  return out;
}

/** The EMF documents of an invocation that carry `metric`. */
function emf(logs: readonly Record<string, unknown>[], metric: string): Record<string, any>[] {
  return logs.filter((l) => l._aws !== undefined && metric in l) as Record<string, any>[];
}

function expectPoisonReported(logs: readonly Record<string, unknown>[], stdout: string, consumer: string, poison: readonly SQSRecord[], secret: string): void {
  const lines = poisonLines(logs);
  expect([...lines.keys()].sort()).toEqual(poison.map((r) => r.messageId).sort());
  for (const r of poison) {
    expect(lines.get(r.messageId)).toHaveLength(1);
    expect(lines.get(r.messageId)![0]).toMatchObject({ level: 'ERROR', consumer, poison: true, reason: expect.any(String) });
  }
  // Bodies are not logged: nothing of the malformed bodies' distinctive text reaches the output.
  expect(stdout).not.toContain(secret);
  const [metric, ...more] = emf(logs, 'PoisonMessages');
  expect(more).toEqual([]);
  expect(metric).toMatchObject({
    PoisonMessages: poison.length,
    consumer,
    _aws: { CloudWatchMetrics: [{ Namespace: 'PlatformApi/prod', Metrics: [{ Name: 'PoisonMessages', Unit: 'Count' }] }] },
  });
}

describe('the jobs worker bundle', () => {
  it('fails only the malformed records and runs the valid job once', async () => {
    const org = await createOrg(p.deps, { name: 'Bundle Org', plan: 'paid' });
    const app = await createApp(p.deps, { orgId: org.id, name: 'Bundle App' });
    const t = p.deps.clock.nowUs();
    const { sessionIds } = await importSessions(p.deps, {
      appId: app.id,
      records: [
        {
          session: { title: 'one', source: 'import', externalId: null, queryParams: [], startedAtUs: t },
          consumer: null,
          messages: [{ role: 'user', content: 'hello', createdAtUs: t }],
        },
      ],
    });
    await p.deps.apps.markDeleted(app.id, p.deps.clock.nowUs());

    const secret = `poison-${randomUUID()}`;
    const notJson = record(`{"type":"app-deletion","appId":"${secret}`, 'jobs');
    const badId = record(JSON.stringify({ type: 'app-deletion', appId: secret }), 'jobs');
    const valid = record(JSON.stringify({ type: 'app-deletion', appId: app.id }), 'jobs');
    const { result, logs, stdout, stderr } = await invoke(JOBS, [notJson, valid, badId]);

    expect(result.batchItemFailures).toEqual([{ itemIdentifier: notJson.messageId }, { itemIdentifier: badId.messageId }]);
    expectPoisonReported(logs, stdout + stderr, 'job', [notJson, badId], secret);
    // The valid job ran once: one batch (the app's one session tombstoned and removed), and its
    // continuation is on the jobs queue, sent by the bundle through the SQS endpoint of its environment.
    expect(logs.filter((l) => l.message === 'app deletion batch')).toEqual([expect.objectContaining({ appId: app.id, removed: 1, done: false })]);
    expect(await p.deps.sessions.get(sessionIds[0]!)).toBeUndefined();
    const sqs = new SQSClient({
      region: local.awsEnv.AWS_REGION,
      endpoint: local.awsEnv.AWS_ENDPOINT_URL_SQS,
      credentials: { accessKeyId: local.awsEnv.AWS_ACCESS_KEY_ID!, secretAccessKey: local.awsEnv.AWS_SECRET_ACCESS_KEY! },
    });
    const queued = await sqs.send(new ReceiveMessageCommand({ QueueUrl: local.jobsQueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    expect((queued.Messages ?? []).map((m) => JSON.parse(m.Body!))).toEqual([{ type: 'app-deletion', appId: app.id }]);
    sqs.destroy();
  });
});

describe('the webhooks worker bundle', () => {
  it('fails only the malformed records and records the valid delivery attempt once', async () => {
    const { subscriptionId: id, period } = await seedRefusedDelivery(p.deps, { title: 'Bundles', day: '2026-03-01' });

    const secret = `poison-${randomUUID()}`;
    const key = { subscriptionId: id, periodId: period.id, revision: period.revision };
    const attempt4 = record(JSON.stringify({ type: 'deliver', ...key, attempt: 4, note: secret }), 'webhooks');
    const nullBody = record('null', 'webhooks');
    const unknownType = record(JSON.stringify({ type: secret }), 'webhooks');
    const valid = record(JSON.stringify({ type: 'deliver', ...key, attempt: 1 }), 'webhooks');
    const { result, logs, stdout, stderr } = await invoke(WEBHOOKS, [attempt4, valid, nullBody, unknownType]);

    expect(result.batchItemFailures).toEqual([attempt4, nullBody, unknownType].map((r) => ({ itemIdentifier: r.messageId })));
    expectPoisonReported(logs, stdout + stderr, 'webhook', [attempt4, nullBody, unknownType], secret);
    const attempts = await p.deps.deliveryLog.list(id, 10);
    expect(attempts).toEqual([expect.objectContaining({ ...key, attempt: 1, outcome: 'dropped', error: 'refused_address' })]);
    expect(logs.filter((l) => l.message === 'webhook delivery')).toEqual([expect.objectContaining({ subscriptionId: id, attempt: 1, outcome: 'dropped' })]);
  });
});
