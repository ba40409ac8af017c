/**
 * The order-events worker (acp/workers/order-events-worker) against the embedded backends and a real
 * HTTPS receiver on loopback (test CA, test-only SSRF exception): a session's pending events go in
 * revision order, each signed with a `Merchant-Signature` the receiver's check accepts over the exact
 * bytes received and carrying `Request-Id: <orderId>.<revision>`; a retryable answer holds the order's
 * next events back until the retry, after the delay the worker asks the queue for; a permanent refusal
 * or a private address drops the event and the next one goes; duplicate messages and a crash after a
 * finished attempt send no event twice; a body that is no order-events message fails alone. The
 * handler is invoked directly with a queue that records what it is asked; one test goes through the
 * local queue runner instead.
 */
import { randomUUID } from 'node:crypto';
import type { Context, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutSession } from '../../functions/acp/domain/checkout';
import { orderEventId, pendingOrderEvent, verifyMerchantSignature, type OrderEventLogEntry } from '../../functions/acp/domain/order-event';
import { orderWebhookSealContext } from '../../functions/acp/app/order-events';
import type { OrderEventLog, OrderEventMessage, OrderEventQueue } from '../../functions/acp/app/acp-ports';
import { createHandler } from '../../functions/acp/workers/order-events-worker.handler';
import type { OrderEventWorkerDeps } from '../../functions/acp/acp-wiring';
import { TestClock } from '../support/clock';
import { FakeResolver } from '../support/fake-resolver';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { RECEIVER_HOST, WebhookReceiver, waitFor, type ReceivedRequest, type Reply } from '../support/webhook-receiver';

const PRIVATE_HOST = 'internal.receiver.test';
const CONTEXT = { awsRequestId: 'test', functionName: 'order-events-test', getRemainingTimeInMillis: () => 60_000 } as Context;

let receiver: WebhookReceiver;
let p: TestPlatform;
const clock = new TestClock();

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  p = await startTestPlatform({
    clock,
    resolver: new FakeResolver().set(RECEIVER_HOST, ['127.0.0.1']).set(PRIVATE_HOST, ['10.0.0.7']),
    webhookNetwork: { allowAddresses: ['127.0.0.1'], trustedCaPem: receiver.caPem },
  });
});

afterAll(async () => {
  await p?.stop();
  await receiver?.stop();
});

/** A queue that records what the worker asks of it (a message and its delay) and sends nothing. */
class RecordingQueue implements OrderEventQueue {
  readonly sent: { readonly message: OrderEventMessage; readonly delaySeconds: number }[] = [];
  async send(messages: readonly OrderEventMessage[], delaySeconds = 0): Promise<void> {
    for (const message of messages) this.sent.push({ message, delaySeconds });
  }
}

interface Seeded {
  readonly sessionId: string;
  readonly orderId: string;
  readonly secret: string;
  readonly path: string;
}

/** A completed session whose order reached revision 3 with its three events pending, and its app's receiver. */
async function seed(opts: { path: string; replies?: Reply[]; host?: string }): Promise<Seeded> {
  if (opts.replies) receiver.script(opts.path, ...opts.replies);
  const appId = randomUUID();
  const orgId = randomUUID();
  const sessionId = randomUUID();
  const orderId = `ord_${randomUUID()}`;
  const secret = `agent-platform-secret-${randomUUID()}`;
  const now = clock.nowUs();
  const url = opts.host ? `https://${opts.host}:${receiver.port}${opts.path}` : receiver.url(opts.path);
  await p.deps.orderWebhooks.put({
    appId,
    orgId,
    url,
    sealedSecret: await p.deps.secrets.seal(secret, orderWebhookSealContext(appId)),
    createdAtUs: now,
    updatedAtUs: now,
  });
  const statuses = ['confirmed', 'shipped', 'completed'] as const;
  const events = statuses.map((status, i) =>
    pendingOrderEvent(i + 1, { type: 'order', id: orderId, checkout_session_id: sessionId, status, note: 'ünïcödé ✓' }, now + i),
  );
  const session: CheckoutSession = {
    id: sessionId,
    orgId,
    appId,
    status: 'completed',
    currency: 'usd',
    lines: [{ lineId: 'li_1', productId: randomUUID(), title: 'Mug', unitAmount: 1800, quantity: 2 }],
    buyerEmail: null,
    messages: [],
    order: { id: orderId, createdAtUs: now, paymentReference: 'pay_test', status: 'completed', fulfillments: [], adjustments: [], revision: 3 },
    details: {},
    completion: null,
    orderEvents: events,
    createdAtUs: now,
    updatedAtUs: now,
    expiresAtUs: now + 3_600_000_000,
    version: 1,
  };
  await p.deps.checkouts.create(session);
  return { sessionId, orderId, secret, path: opts.path };
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
    eventSourceARN: 'arn:aws:sqs:local:000000000000:order-events',
    awsRegion: 'local',
  };
}

const message = (sessionId: string) => record(JSON.stringify({ type: 'order-events', sessionId }));

function worker(overrides: Partial<OrderEventWorkerDeps> = {}) {
  const queue = new RecordingQueue();
  const handler = createHandler({ ...p.deps, orderEventQueue: queue, ...overrides });
  return { queue, handler };
}

const requestIds = (reqs: readonly ReceivedRequest[]) => reqs.map((r) => r.headers['request-id']);
const logOf = (s: Seeded): Promise<OrderEventLogEntry[]> => p.deps.orderEventLog.list(s.sessionId, 100);

describe('the order-events worker', () => {
  it('delivers the pending events in revision order, each signed and named <orderId>.<revision>, and empties the outbox', async () => {
    const s = await seed({ path: '/in-order', replies: [200] });
    const { handler, queue } = worker();
    expect(await handler({ Records: [message(s.sessionId)] }, CONTEXT)).toEqual({ batchItemFailures: [] });

    const reqs = receiver.requests(s.path);
    expect(requestIds(reqs)).toEqual([1, 2, 3].map((r) => orderEventId(s.orderId, r)));
    const sent = (await p.deps.checkouts.get(s.sessionId))!;
    expect(sent.orderEvents).toBeUndefined();
    for (const [i, req] of reqs.entries()) {
      expect(req.method).toBe('POST');
      expect(req.headers['content-type']).toBe('application/json');
      const nowUnix = Math.floor(clock.nowUs() / 1_000_000);
      expect(verifyMerchantSignature(s.secret, req.body, req.headers['merchant-signature'], nowUnix), `signature of event ${i + 1}`).toBe(true);
      // Over these bytes and under this secret only.
      expect(verifyMerchantSignature(`${s.secret}x`, req.body, req.headers['merchant-signature'], nowUnix)).toBe(false);
      expect(verifyMerchantSignature(s.secret, Buffer.concat([req.body, Buffer.from(' ')]), req.headers['merchant-signature'], nowUnix)).toBe(false);
      const body = JSON.parse(req.body.toString('utf8')) as { type: string; data: Record<string, unknown> };
      expect(body.type).toBe(i === 0 ? 'order_create' : 'order_update');
      expect(body.data).toMatchObject({ id: s.orderId, status: ['confirmed', 'shipped', 'completed'][i], note: 'ünïcödé ✓' });
    }
    expect(queue.sent).toEqual([]);
    expect((await logOf(s)).map((e) => [e.revision, e.attempt, e.outcome, e.httpStatus])).toEqual([
      [3, 1, 'delivered', 200],
      [2, 1, 'delivered', 200],
      [1, 1, 'delivered', 200],
    ]);
    expect(await p.deps.orderEventLog.cursor(s.sessionId)).toEqual({ deliveredThrough: 3, attempts: 0, notBeforeUs: 0 });
  });

  it('retries a 500 after the delay it asks the queue for, and sends no later event before the first is done', async () => {
    const s = await seed({ path: '/retry', replies: [500, 200] });
    const { handler, queue } = worker();
    await handler({ Records: [message(s.sessionId)] }, CONTEXT);
    expect(requestIds(receiver.requests(s.path))).toEqual([orderEventId(s.orderId, 1)]);
    expect(queue.sent).toEqual([{ message: { type: 'order-events', sessionId: s.sessionId }, delaySeconds: 10 }]);

    // The message of a later change arrives before the retry is due: nothing is sent, the wait is asked for again.
    clock.advance(4_000);
    await handler({ Records: [message(s.sessionId)] }, CONTEXT);
    expect(receiver.requests(s.path)).toHaveLength(1);
    expect(queue.sent[1]!.delaySeconds).toBeGreaterThanOrEqual(5);
    expect(queue.sent[1]!.delaySeconds).toBeLessThanOrEqual(6);

    // The delayed message, once the 10 s are over: event 1 again, then 2 and 3.
    clock.advance(6_000);
    await handler({ Records: [message(s.sessionId)] }, CONTEXT);
    expect(requestIds(receiver.requests(s.path))).toEqual([1, 1, 2, 3].map((r) => orderEventId(s.orderId, r)));
    const [first, retry] = receiver.requests(s.path);
    expect(retry!.body.equals(first!.body)).toBe(true);
    expect((await logOf(s)).map((e) => [e.revision, e.attempt, e.outcome, e.httpStatus])).toEqual([
      [3, 1, 'delivered', 200],
      [2, 1, 'delivered', 200],
      [1, 2, 'delivered', 200],
      [1, 1, 'retry', 500],
    ]);
    expect(queue.sent).toHaveLength(2);
  });

  it('drops an event the receiver answers 400 and sends the next one', async () => {
    const s = await seed({ path: '/refuse-first', replies: [400, 200] });
    const { handler, queue } = worker();
    await handler({ Records: [message(s.sessionId)] }, CONTEXT);
    expect(requestIds(receiver.requests(s.path))).toEqual([1, 2, 3].map((r) => orderEventId(s.orderId, r)));
    expect((await logOf(s)).map((e) => [e.revision, e.outcome, e.httpStatus])).toEqual([
      [3, 'delivered', 200],
      [2, 'delivered', 200],
      [1, 'dropped', 400],
    ]);
    expect(queue.sent).toEqual([]);
    expect((await p.deps.checkouts.get(s.sessionId))!.orderEvents).toBeUndefined();
  });

  it('refuses a receiver whose host resolves to a private address: every event dropped as refused_address, nothing sent', async () => {
    const s = await seed({ path: '/private', host: PRIVATE_HOST });
    const { handler, queue } = worker();
    await handler({ Records: [message(s.sessionId)] }, CONTEXT);
    expect(receiver.requests(s.path)).toEqual([]);
    expect((await logOf(s)).map((e) => [e.revision, e.outcome, e.error])).toEqual([
      [3, 'dropped', 'refused_address'],
      [2, 'dropped', 'refused_address'],
      [1, 'dropped', 'refused_address'],
    ]);
    expect(queue.sent).toEqual([]);
    expect((await p.deps.checkouts.get(s.sessionId))!.orderEvents).toBeUndefined();
  });

  it('sends no event twice for duplicate messages handled at once, nor after a crash between a finish and the next step', async () => {
    const s = await seed({ path: '/duplicates', replies: [200] });
    // The first run crashes right after recording that event 1 was delivered (before the outbox is pruned).
    let crashed = false;
    const crashing: OrderEventLog = Object.create(p.deps.orderEventLog, {
      finish: {
        value: async (...args: Parameters<OrderEventLog['finish']>) => {
          await p.deps.orderEventLog.finish(...args);
          if (!crashed) {
            crashed = true;
            throw new Error('crashed after the finish');
          }
        },
      },
    });
    const first = worker({ orderEventLog: crashing });
    const crash = message(s.sessionId);
    expect(await first.handler({ Records: [crash] }, CONTEXT)).toEqual({ batchItemFailures: [{ itemIdentifier: crash.messageId }] });
    expect(requestIds(receiver.requests(s.path))).toEqual([orderEventId(s.orderId, 1)]);

    // The redelivery of that message and two duplicates, at once, on two invocations.
    const { handler } = worker();
    const outcomes = await Promise.all([
      handler({ Records: [message(s.sessionId), message(s.sessionId)] }, CONTEXT),
      handler({ Records: [message(s.sessionId)] }, CONTEXT),
    ]);
    for (const out of outcomes) expect(out.batchItemFailures).toEqual([]);
    // Duplicate messages may stop at another's claim; a last one finds nothing left.
    await handler({ Records: [message(s.sessionId)] }, CONTEXT);
    expect(requestIds(receiver.requests(s.path))).toEqual([1, 2, 3].map((r) => orderEventId(s.orderId, r)));
    expect((await logOf(s)).map((e) => [e.revision, e.attempt, e.outcome])).toEqual([
      [3, 1, 'delivered'],
      [2, 1, 'delivered'],
      [1, 1, 'delivered'],
    ]);
    expect((await p.deps.checkouts.get(s.sessionId))!.orderEvents).toBeUndefined();
  });

  it('fails a body that is no order-events message alone, and handles the valid one beside it', async () => {
    const s = await seed({ path: '/beside-poison', replies: [200] });
    const { handler } = worker();
    const bad = [
      'not json',
      '{}',
      JSON.stringify({ type: 'order-events' }),
      JSON.stringify({ type: 'order-events', sessionId: 'not-a-uuid' }),
      JSON.stringify({ type: 'deliver', sessionId: s.sessionId }),
      JSON.stringify([{ type: 'order-events', sessionId: s.sessionId }]),
    ].map(record);
    const good = message(s.sessionId);
    const out = await handler({ Records: [...bad.slice(0, 3), good, ...bad.slice(3)] }, CONTEXT);
    expect(out.batchItemFailures).toEqual(bad.map((r) => ({ itemIdentifier: r.messageId })));
    expect(requestIds(receiver.requests(s.path))).toEqual([1, 2, 3].map((r) => orderEventId(s.orderId, r)));
  });

  it('runs on the local queue runner: a message on the order-events queue delivers the session', async () => {
    const s = await seed({ path: '/through-the-queue', replies: [200] });
    await p.deps.orderEventQueue.send([{ type: 'order-events', sessionId: s.sessionId }]);
    await waitFor(() => receiver.requests(s.path).length === 3, 15_000, 'three events through the local queue');
    expect(requestIds(receiver.requests(s.path))).toEqual([1, 2, 3].map((r) => orderEventId(s.orderId, r)));
  });
});
