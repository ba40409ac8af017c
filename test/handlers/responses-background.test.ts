/**
 * Background responses over HTTP with the responses queue driven by hand: the local queue runners are
 * off, so each test receives the run's message from the local SQS queue and hands it to the worker
 * module (functions/chat/workers/response-runner.handler.ts) as an SQS event, choosing when it runs.
 * Queued then completed (polled with the `openai` package), streamed and resumed, cancelled, and a
 * worker that dies between two writes, after its turn was recorded and before it, without a turn
 * recorded or billed twice.
 */
import { randomUUID } from 'node:crypto';
import { DeleteMessageCommand, GetQueueUrlCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import type { Context, SQSRecord } from 'aws-lambda';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseStore } from '../../functions/chat/app/chat-ports';
import { createHandler } from '../../functions/chat/workers/response-runner.handler';
import type { ChatFunctionDeps } from '../../functions/chat/wiring/chat-wiring';
import { chatWorld, patchSettings, type ChatWorld } from '../support/chat';
import { localResources } from '../support/lambda-bundle';
import { expectOpenResponse, expectOpenResponsesEvent } from '../support/open-responses-schemas';
import { startTestPlatform, type TestPlatform } from '../support/platform';

const RESPONSES = '/api/v1/responses';
type Body = Record<string, any>;
type Event = { type: string; sequence_number: number; response?: Body };

describe('background responses, the worker driven by hand', () => {
  let p: TestPlatform;
  let w: ChatWorld;
  let client: OpenAI;
  let sqs: SQSClient;
  let queueUrl: string;
  beforeAll(async () => {
    p = await startTestPlatform({ visibilityDelayMs: 0, queueRunners: false });
    w = await chatWorld(p);
    client = new OpenAI({ apiKey: w.chatKey, baseURL: `${p.baseUrl}/api/v1`, maxRetries: 0 });
    const { awsEnv } = await localResources(p);
    sqs = new SQSClient({
      region: awsEnv.AWS_REGION,
      endpoint: awsEnv.AWS_ENDPOINT_URL_SQS,
      credentials: { accessKeyId: awsEnv.AWS_ACCESS_KEY_ID!, secretAccessKey: awsEnv.AWS_SECRET_ACCESS_KEY! },
    });
    queueUrl = (await sqs.send(new GetQueueUrlCommand({ QueueName: 'responses' }))).QueueUrl!;
  });
  afterAll(async () => {
    sqs?.destroy();
    await p?.stop();
  });

  const context = () => ({ awsRequestId: randomUUID(), functionName: 'response-runner', getRemainingTimeInMillis: () => 300_000 }) as Context;
  const record = (m: Message): SQSRecord => ({
    messageId: m.MessageId!,
    receiptHandle: m.ReceiptHandle!,
    body: m.Body!,
    attributes: m.Attributes as SQSRecord['attributes'],
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:000000000000:responses',
    awsRegion: 'local',
  });

  /** The queue's next message (there is one per background response). */
  async function nextMessage(): Promise<Message> {
    for (let i = 0; i < 10; i++) {
      const res = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 1, WaitTimeSeconds: 1, AttributeNames: ['All'] }));
      if (res.Messages?.length) return res.Messages[0]!;
    }
    throw new Error('no message on the responses queue');
  }

  /** Hands a message to the worker built on `deps`; deletes it when the worker succeeded. Returns whether it did. */
  async function deliver(m: Message, deps: ChatFunctionDeps = p.deps as unknown as ChatFunctionDeps): Promise<boolean> {
    const out = await createHandler(deps)({ Records: [record(m)] }, context());
    if (out.batchItemFailures.length) return false;
    await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle! }));
    return true;
  }

  const get = async (id: string): Promise<Body> => {
    const res = await p.call('GET', `${RESPONSES}/${id}`, { token: w.chatKey });
    expect(res.status, res.text).toBe(200);
    expectOpenResponse(res.body);
    return res.body;
  };
  const transcript = async (sessionId: string) =>
    (await p.call('GET', `/api/v1/org/sessions/${sessionId}/messages`, { token: w.orgKey })).body.data?.messages.map((m: { content: string }) => m.content);
  const usageRows = async (sessionId: string) =>
    (await p.call('GET', '/api/v1/org/usage?limit=1000', { token: w.orgKey })).body.data.filter((r: { session_id: string }) => r.session_id === sessionId);

  it('answers queued at once, runs on the worker, and is polled to completed with the openai package', async () => {
    const queued = await client.responses.create({ model: w.appNameId, input: 'Take your time', background: true });
    expect(queued).toMatchObject({ status: 'queued', background: true, output: [] });
    expectOpenResponse(queued);
    expect((await get(queued.id)).status).toBe('queued');
    expect(await deliver(await nextMessage())).toBe(true);
    let r = await client.responses.retrieve(queued.id);
    while (r.status === 'queued' || r.status === 'in_progress') r = await client.responses.retrieve(queued.id);
    expect(r).toMatchObject({ id: queued.id, status: 'completed', background: true, output_text: 'Offline reply #1: Take your time' });
    expectOpenResponse(r);
    const sessionId = (r as unknown as { chatSessionId: string }).chatSessionId;
    expect(await transcript(sessionId)).toEqual(['Take your time', 'Offline reply #1: Take your time']);
    // It continues like any response.
    const next = await client.responses.create({ model: w.appNameId, input: 'And then?', previous_response_id: r.id });
    expect((next as unknown as { chatSessionId: string }).chatSessionId).toBe(sessionId);
    expect((await client.responses.inputItems.list(r.id)).data).toHaveLength(1);
  });

  it('streams a background response as its run goes, and resumes it from a sequence number', async () => {
    const res = await fetch(`${p.baseUrl}${RESPONSES}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${w.chatKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: w.appNameId, input: 'Stream me later', background: true, stream: true }),
    });
    expect(res.status).toBe(200);
    const text = res.text();
    // The run happens while the stream waits for it.
    expect(await deliver(await nextMessage())).toBe(true);
    const events = (await text)
      .split('\n\n')
      .filter((e) => e.startsWith('event: '))
      .map((e) => JSON.parse(e.slice(e.indexOf('data: ') + 6)) as Event);
    for (const e of events) expectOpenResponsesEvent(e);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.slice(0, 3).map((e) => e.type)).toEqual(['response.created', 'response.queued', 'response.in_progress']);
    expect(events[0]!.response!.status).toBe('queued');
    expect(events.at(-1)).toMatchObject({ type: 'response.completed', response: { status: 'completed', background: true } });
    const id = events[0]!.response!.id as string;
    const resumed = await fetch(`${p.baseUrl}${RESPONSES}/${id}?stream=true&starting_after=2`, { headers: { Authorization: `Bearer ${w.chatKey}` } });
    const again = (await resumed.text())
      .split('\n\n')
      .filter((e) => e.startsWith('event: '))
      .map((e) => JSON.parse(e.slice(e.indexOf('data: ') + 6)) as Event);
    expect(again).toEqual(events.slice(3));
  });

  it('cancels a queued response: its run does nothing, and a finished or foreground response is not cancelled', async () => {
    const queued = await client.responses.create({ model: w.appNameId, input: 'Never mind', background: true });
    const cancelled = await client.responses.cancel(queued.id);
    expect(cancelled).toMatchObject({ id: queued.id, status: 'cancelled' });
    expect(await deliver(await nextMessage())).toBe(true);
    expect((await get(queued.id)).status).toBe('cancelled');
    expect((await client.responses.cancel(queued.id)).status).toBe('cancelled');
    const sessionId = (queued as unknown as { chatSessionId: string }).chatSessionId;
    expect((await p.call('GET', `/api/v1/org/sessions/${sessionId}/messages`, { token: w.orgKey })).status).toBe(404);

    const foreground = await client.responses.create({ model: w.appNameId, input: 'Done already' });
    const refused = await p.call('POST', `${RESPONSES}/${foreground.id}/cancel`, { token: w.chatKey });
    expect(refused).toMatchObject({ status: 400, body: { error: 'Only a background response can be cancelled' } });
    for (const [body, error] of [
      [{ background: true, store: false }, 'background: a background response must be stored (store: true)'],
      [{ background: 'yes' }, 'background must be a boolean'],
    ] as const) {
      const res = await p.call('POST', RESPONSES, { token: w.chatKey, body: { model: w.appNameId, input: 'x', ...body } });
      expect(res).toMatchObject({ status: 400, body: { error } });
    }
    const zdr = await chatWorld(p);
    await patchSettings(p, zdr.appId, { zeroDataRetention: true });
    const res = await p.call('POST', RESPONSES, { token: zdr.chatKey, body: { model: zdr.appNameId, input: 'x', background: true } });
    expect(res.status).toBe(400);
  });

  it('survives a worker that dies between two writes: the turn recorded once, billed once, the response completed', async () => {
    const queued = await client.responses.create({ model: w.appNameId, input: 'Crash after the turn', background: true });
    const message = await nextMessage();
    // The first worker records the turn, then dies before the response says so.
    const deps = p.deps as unknown as ChatFunctionDeps;
    const dying: ResponseStore = {
      put: (r) => deps.responses.put(r),
      get: (s, a) => deps.responses.get(s, a),
      remove: (s, a) => deps.responses.remove(s, a),
      transition: (s, a, from, change) =>
        change.status === 'completed' ? Promise.reject(new Error('worker died')) : deps.responses.transition(s, a, from, change),
    };
    expect(await deliver(message, { ...deps, responses: dying })).toBe(false);
    expect((await get(queued.id)).status).toBe('in_progress');
    // The message comes back; the next worker finds the recorded answer and runs nothing again.
    expect(await deliver(message)).toBe(true);
    const done = await get(queued.id);
    expect(done).toMatchObject({ status: 'completed', output: [expect.objectContaining({ type: 'message' })] });
    const sessionId = done.chatSessionId as string;
    expect(await transcript(sessionId)).toEqual(['Crash after the turn', 'Offline reply #1: Crash after the turn']);
    expect(await usageRows(sessionId)).toHaveLength(1);
  });

  it('fails a run whose worker died before its turn was recorded, once its hold has lapsed, without running it again', async () => {
    const queued = await client.responses.create({ model: w.appNameId, input: 'Crash before the turn', background: true });
    const message = await nextMessage();
    const deps = p.deps as unknown as ChatFunctionDeps;
    // A worker that claimed the run and died at once: in_progress, its hold already over.
    const ref = { sessionId: queued.id.slice(5, 37), answerId: queued.id.slice(37) };
    const uuid = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    const stored = (await deps.responses.get(uuid(ref.sessionId), uuid(ref.answerId)))!;
    await deps.responses.transition(stored.sessionId, stored.answerId, ['queued'], {
      status: 'in_progress',
      body: { ...stored.body, status: 'in_progress' },
      runUntilUs: deps.clock.nowUs() - 1,
    });
    expect(await deliver(message)).toBe(true);
    const failed = await get(queued.id);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'server_error' } });
    expect((await p.call('GET', `/api/v1/org/sessions/${stored.sessionId}/messages`, { token: w.orgKey })).status).toBe(404);
  });

  it('sends a message that came before its response was stored again, a little later, and drops one that never got its response', async () => {
    const deps = p.deps as unknown as ChatFunctionDeps;
    const early = { sessionId: randomUUID(), answerId: randomUUID(), queuedAtUs: deps.clock.nowUs() };
    await deps.responseRuns.send(early);
    expect(await deliver(await nextMessage())).toBe(true);
    // Sent again with a delay: back on the queue once the delay is over.
    const again = await nextMessage();
    expect(JSON.parse(again.Body!)).toEqual(early);
    const stale = { ...early, queuedAtUs: early.queuedAtUs - 61_000_000 };
    expect(await deliver({ ...again, Body: JSON.stringify(stale) })).toBe(true);
    const left = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 1, WaitTimeSeconds: 3 }));
    expect(left.Messages ?? []).toEqual([]);
  });
});
