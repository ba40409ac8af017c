/**
 * POISON MESSAGES: in every queue worker a body that cannot be parsed (not JSON, not an object, a
 * field missing or of the wrong type, an attempt out of range, an unknown type, a 100 KB string, a
 * `__proto__` key) fails alone. The batch response names exactly the malformed records, each is
 * logged once as poison with its message id and a reason that quotes nothing of the body, and the
 * valid record beside them completes once, against the embedded backends.
 */
import { randomUUID } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { Context, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOrg } from '../../functions/tenancy/app/create-org';
import { createApp } from '../../functions/tenancy/app/manage-apps';
import type { AppStore } from '../../functions/tenancy/app/tenancy-ports';
import { createHandler as jobsWorker } from '../../functions/conversations/workers/jobs-worker.handler';
import { createHandler as ocrWorker } from '../../functions/chat/workers/ocr-worker.handler';
import { sqsConsumer, type QueueHandler } from '../../functions/kernel/workers/queue-kit';
import { createHandler as webhooksWorker } from '../../functions/release-notes/workers/webhooks-worker.handler';
import type { LocalDeps } from '../../functions/local/local-wiring';
import { seedRefusedDelivery } from '../support/refused-delivery';
import { startTestPlatform, type TestPlatform } from '../support/platform';

let p: TestPlatform;

beforeAll(async () => {
  // The handlers are invoked directly; no runner competes for the queues.
  p = await startTestPlatform({ queueRunners: false });
});

afterAll(() => p?.stop());

const SECRET = `secret-${randomUUID()}`;
const LONG = 'x'.repeat(100 * 1024);

/**
 * Malformed bodies around a valid message: bodies that are not JSON or not an object, then the valid
 * message with each required field missing, and each field set to every value in `bad` plus the
 * values no field of these messages accepts (null, a boolean, an array; an object where the field is
 * not one, since unknown keys of an object field are dropped, not refused).
 */
function malformedBodies(valid: Record<string, unknown>, required: readonly string[], bad: Record<string, readonly unknown[]>): string[] {
  const bodies = [
    '',
    '   ',
    'not json',
    `{"type":"${SECRET}`,
    LONG,
    'null',
    'true',
    '42',
    JSON.stringify(SECRET),
    JSON.stringify(LONG),
    '[]',
    JSON.stringify([valid]),
    '{}',
    // JSON.parse makes `__proto__` an own key: the valid fields under it must not count.
    `{"__proto__":${JSON.stringify(valid)}}`,
  ];
  if ('type' in valid) bodies.push(JSON.stringify({ ...valid, type: SECRET }));
  for (const field of required) {
    const { [field]: _, ...rest } = valid;
    bodies.push(JSON.stringify(rest));
  }
  for (const field of new Set([...required, ...Object.keys(bad)])) {
    const object = typeof valid[field] === 'object' ? [] : [{ [SECRET]: 1 }];
    for (const value of [null, true, ...object, [SECRET], ...(bad[field] ?? [])]) bodies.push(JSON.stringify({ ...valid, [field]: value }));
  }
  return bodies;
}

function record(body: string): SQSRecord {
  return {
    messageId: randomUUID(),
    receiptHandle: randomUUID(),
    body,
    attributes: {} as SQSRecord['attributes'],
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:000000000000:test',
    awsRegion: 'local',
  };
}

const CONTEXT = { awsRequestId: 'test', functionName: 'queue-test', getRemainingTimeInMillis: () => 60_000 } as Context;

/** A silent logger whose error and info calls are recorded. */
function observedLogger() {
  const logger = new Logger({ serviceName: 'queue-poison-test', logLevel: 'SILENT' });
  return { logger, errors: vi.spyOn(logger, 'error'), infos: vi.spyOn(logger, 'info') };
}

type Observed = ReturnType<typeof observedLogger>;

/** Runs `malformed` with `valid` in the middle through `handler`; checks the response, the poison lines and the metric. */
async function expectOnlyMalformedFail(handler: QueueHandler, o: Observed, consumer: string, malformed: readonly string[], valid: string): Promise<void> {
  const bad = malformed.map(record);
  const good = record(valid);
  const half = Math.floor(bad.length / 2);
  const metrics = vi.spyOn(Metrics.prototype, 'addMetric');
  try {
    const out = await handler({ Records: [...bad.slice(0, half), good, ...bad.slice(half)] }, CONTEXT);
    expect(out.batchItemFailures).toEqual(bad.map((r) => ({ itemIdentifier: r.messageId })));
    expect(metrics.mock.calls.filter(([name]) => name === 'PoisonMessages')).toEqual([['PoisonMessages', 'Count', bad.length]]);
  } finally {
    metrics.mockRestore();
  }
  const lines: Record<string, unknown>[] = o.errors.mock.calls.map(([message, extra]) => ({ message, ...(extra as Record<string, unknown>) }));
  expect(lines).toHaveLength(bad.length);
  for (const [i, r] of bad.entries()) {
    const line = lines.find((l) => l.messageId === r.messageId);
    expect(line, `poison line of body #${i}`).toMatchObject({ consumer, poison: true, reason: expect.any(String) });
    expect(String(line!.reason).length).toBeLessThanOrEqual(501);
  }
  const logged = JSON.stringify(lines);
  expect(logged).not.toContain(SECRET);
  expect(logged).not.toContain('x'.repeat(50));
  expect(Object.prototype).not.toHaveProperty('type');
}

describe('the jobs worker', () => {
  it('fails each malformed job alone and runs the valid app deletion once', async () => {
    const org = await createOrg(p.deps, { name: 'Poison Org', plan: 'paid' });
    const app = await createApp(p.deps, { orgId: org.id, name: 'Poison App' });
    await p.deps.apps.markDeleted(app.id, p.deps.clock.nowUs());
    const completed: string[] = [];
    const apps: AppStore = Object.create(p.deps.apps, {
      completeDeletion: {
        value: async (id: string) => {
          completed.push(id);
          return p.deps.apps.completeDeletion(id);
        },
      },
    });
    const o = observedLogger();
    const handler = jobsWorker({ ...p.deps, apps, logger: o.logger });
    const valid = { type: 'app-deletion', appId: randomUUID() };
    const malformed = malformedBodies(valid, ['type', 'appId'], { type: ['APP-DELETION', 'app-deletion '], appId: ['not-a-uuid', '', 42, `${randomUUID()}x`] });

    await expectOnlyMalformedFail(handler, o, 'job', malformed, JSON.stringify({ type: 'app-deletion', appId: app.id }));
    expect(completed).toEqual([app.id]);
    expect((await p.deps.apps.listPendingDeletion(100)).map((a) => a.id)).not.toContain(app.id);
    expect(o.infos.mock.calls.filter(([m]) => m === 'app deletion batch')).toEqual([['app deletion batch', { appId: app.id, removed: 0, done: true }]]);
  });

  it('still reports a job that fails on the table as a retried failure, not as poison', async () => {
    const appId = randomUUID();
    const apps: AppStore = Object.create(p.deps.apps, {
      get: { value: async (id: string) => (id === appId ? Promise.reject(new Error('table unavailable')) : p.deps.apps.get(id)) },
    });
    const o = observedLogger();
    const failing = record(JSON.stringify({ type: 'app-deletion', appId }));
    const fine = record(JSON.stringify({ type: 'app-deletion', appId: randomUUID() }));
    const out = await jobsWorker({ ...p.deps, apps, logger: o.logger })({ Records: [failing, fine] }, CONTEXT);
    expect(out.batchItemFailures).toEqual([{ itemIdentifier: failing.messageId }]);
    expect(o.errors.mock.calls).toEqual([
      [
        'job message failed; it will be retried',
        { messageId: failing.messageId, consumer: 'job', error: expect.objectContaining({ message: 'table unavailable' }) },
      ],
    ]);
  });
});

describe('the webhooks worker', () => {
  it('fails each malformed message alone and records the valid delivery attempt once', async () => {
    const { subscriptionId: id, period } = await seedRefusedDelivery(p.deps, { title: 'Poison', day: '2026-05-01' });
    const completed: unknown[] = [];
    const deliveryLog: LocalDeps['deliveryLog'] = Object.create(p.deps.deliveryLog, {
      complete: {
        value: async (r: Parameters<LocalDeps['deliveryLog']['complete']>[0]) => {
          completed.push(r);
          return p.deps.deliveryLog.complete(r);
        },
      },
    });
    const o = observedLogger();
    const handler = webhooksWorker({ ...p.deps, deliveryLog, logger: o.logger });
    const key = { subscriptionId: id, periodId: period.id, revision: period.revision };
    const deliver = { type: 'deliver', ...key, attempt: 1 };
    const fanOut = { type: 'fan-out', periodId: period.id, revision: period.revision };
    const malformed = [
      ...malformedBodies(deliver, ['type', 'subscriptionId', 'periodId', 'revision', 'attempt'], {
        attempt: [0, 4, 1.5, '1', -1, 1e9],
        periodId: [''],
        subscriptionId: [''],
      }),
      ...malformedBodies(fanOut, ['periodId', 'revision'], { cursor: [42] }),
    ];

    await expectOnlyMalformedFail(handler, o, 'webhook', malformed, JSON.stringify(deliver));
    expect(completed).toEqual([expect.objectContaining({ ...key, attempt: 1, outcome: 'dropped', error: 'refused_address' })]);
    expect(await p.deps.deliveryLog.list(id, 10)).toEqual([expect.objectContaining({ ...key, attempt: 1, outcome: 'dropped', error: 'refused_address' })]);
  });
});

describe('the OCR worker', () => {
  it('fails each malformed notice alone and records the valid outcome once', async () => {
    const fileId = randomUUID();
    await p.deps.files.create({
      id: fileId,
      orgId: randomUUID(),
      appId: randomUUID(),
      uploaderKeyId: 'key-1',
      consumerId: null,
      fileName: 'scan.pdf',
      mimeType: 'application/pdf',
      kind: 'pdf',
      size: 1,
      sha256: '0'.repeat(64),
      storageKey: `files/${fileId}/scan.pdf`,
      status: 'pending',
      extraction: 'ocr_pending',
      textKey: null,
      pages: 1,
      ocrJobId: null,
      createdAtUs: p.deps.clock.nowUs(),
      referencedAtUs: null,
    });
    const outcomes: unknown[] = [];
    const files: LocalDeps['files'] = Object.create(p.deps.files, {
      setExtraction: {
        value: async (...args: Parameters<LocalDeps['files']['setExtraction']>) => {
          outcomes.push(args);
          return p.deps.files.setExtraction(...args);
        },
      },
    });
    const o = observedLogger();
    const handler = ocrWorker({ ...p.deps, files, logger: o.logger });
    const notice = {
      JobId: 'job-1',
      Status: 'FAILED',
      API: 'StartDocumentTextDetection',
      JobTag: fileId,
      Timestamp: 1,
      DocumentLocation: { S3ObjectName: 'k', S3Bucket: 'b' },
    };
    const envelope = (message: unknown) => JSON.stringify({ Type: 'Notification', Message: message });
    const malformed = [
      ...malformedBodies(notice, ['JobId', 'Status', 'API'], {
        JobId: ['', 42],
        Status: ['DONE', 'succeeded'],
        JobTag: [42],
        Timestamp: ['1'],
        DocumentLocation: ['b/k'],
      }),
      envelope('not json'),
      envelope(JSON.stringify({ JobId: 'job-1' })),
      envelope(JSON.stringify([notice])),
      envelope(42),
    ];

    await expectOnlyMalformedFail(handler, o, 'OCR notice', malformed, envelope(JSON.stringify(notice)));
    expect(outcomes).toEqual([[fileId, 'ocr_failed', null]]);
    expect((await p.deps.files.get(fileId))?.extraction).toBe('ocr_failed');
  });
});

describe('the queue kit', () => {
  it.each([true, false])('fails only the record whose handler throws synchronously (concurrent: %s)', async (concurrent) => {
    const o = observedLogger();
    const handled: string[] = [];
    const handler = sqsConsumer(
      { ...p.deps, logger: o.logger },
      {
        name: 'kit',
        concurrent,
        parse: (body) => body,
        handle: (body) => {
          if (body === 'throw') throw new Error('synchronous');
          handled.push(body);
          return Promise.resolve();
        },
      },
    );
    const records = ['a', 'throw', 'b'].map(record);
    const out = await handler({ Records: records }, CONTEXT);
    expect(out.batchItemFailures).toEqual([{ itemIdentifier: records[1]!.messageId }]);
    expect(handled.sort()).toEqual(['a', 'b']);
    expect(o.errors.mock.calls[0]![1]).toMatchObject({ messageId: records[1]!.messageId, consumer: 'kit' });
    expect(o.errors.mock.calls[0]![1]).not.toHaveProperty('poison');
  });
});
