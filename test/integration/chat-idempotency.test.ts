/**
 * Retries cannot duplicate a chat turn or an upload (docs/adr/0023), over HTTP against the local
 * platform: a request with an `Idempotency-Key` seen before gets the first answer
 * (`Idempotent-Replayed: true`, a stream as the completed answer) and writes nothing; the same key with
 * another request is a 422; one still running is a 409 with Retry-After; a failed turn forgets its key.
 * And the official `openai` package, whose first attempt's answer is lost on the way back (a proxy
 * answers 502 after the platform ran the turn), retries and gets the same turn, recorded once.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestFingerprint } from '../../functions/kernel/domain/digest';
import { chat, chatWorld, patchSettings, type ChatWorld } from '../support/chat';
import { png } from '../support/file-fixtures';
import { upload } from '../support/uploads';
import { startTestPlatform, type TestPlatform } from '../support/platform';

describe('Idempotency-Key on chat turns', () => {
  let p: TestPlatform;
  let w: ChatWorld;
  beforeAll(async () => {
    p = await startTestPlatform({ visibilityDelayMs: 0, openAiBaseUrl: 'http://127.0.0.1:9/v1', openAiApiKey: 'sk-test' });
    w = await chatWorld(p);
  });
  afterAll(() => p.stop());

  const body = (content: string, extra: Record<string, unknown> = {}) => ({ model: w.appNameId, messages: [{ role: 'user', content }], ...extra });
  const withKey = (b: Record<string, unknown>, key: string) => chat(p, w.chatKey, b, { 'Idempotency-Key': key });
  const turnsOf = async (sessionId: string) =>
    (await p.call('GET', `/api/v1/org/sessions/${sessionId}/messages`, { token: w.orgKey })).body.data.messages.length / 2;
  const usageOf = async (sessionId: string) =>
    (await p.call('GET', '/api/v1/org/usage?limit=100', { token: w.orgKey })).body.data.filter((u: { session_id: string }) => u.session_id === sessionId)
      .length;

  it('a repeat returns the first answer and writes nothing', async () => {
    const first = await withKey(body('Hello once'), 'key-1');
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await withKey(body('Hello once'), 'key-1');
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await turnsOf(first.body.chatSessionId)).toBe(1);
    expect(await usageOf(first.body.chatSessionId)).toBe(1);
  });

  it('a streamed repeat gets the completed answer as a stream', async () => {
    const first = await withKey(body('Stream me', { stream: true }), 'key-stream');
    expect(first.status).toBe(200);
    const sessionId = first.headers.get('x-chat-session-id')!;
    const again = await withKey(body('Stream me', { stream: true }), 'key-stream');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toContain('text/event-stream');
    const text = (raw: string) =>
      raw
        .split('\n\n')
        .filter((e) => e.startsWith('data: {'))
        .map((e) => JSON.parse(e.slice(6)).choices[0]?.delta?.content ?? '')
        .join('');
    expect(text(again.text)).toBe(text(first.text));
    expect(again.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(await turnsOf(sessionId)).toBe(1);
  });

  it('the same key with another request is a 422; a key in flight is a 409 with Retry-After', async () => {
    const first = await withKey(body('First body'), 'key-2');
    expect(first.status).toBe(200);
    const other = await withKey(body('Another body'), 'key-2');
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ error: 'This Idempotency-Key was used with a different request' });
    // A request still running with this key (begun by another process).
    const b = body('Slow one');
    await p.deps.idempotency.begin(
      `chat:${w.chatKeyId}:chatCompletionsCreate:key-3`,
      requestFingerprint({ body: b, headerSessionId: null }),
      Date.now(),
      300_000,
    );
    const busy = await withKey(b, 'key-3');
    expect(busy.status).toBe(409);
    expect(busy.headers.get('retry-after')).toBe('1');
    const tooLong = await withKey(body('x'), 'k'.repeat(256));
    expect(tooLong.status).toBe(400);
  });

  it('a turn that failed forgets its key: the retry runs', async () => {
    await patchSettings(p, w.appId, { model: 'openai:gpt-4o-mini' });
    const failed = await withKey(body('Try me'), 'key-4');
    expect(failed.status).toBeGreaterThanOrEqual(500);
    await patchSettings(p, w.appId, { model: 'offline' });
    const retried = await withKey(body('Try me'), 'key-4');
    expect(retried.status, retried.text).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('an upload repeated with its key gets the first file and stores nothing again; another file with the key is a 422', async () => {
    const image = png(4, 4);
    const filesOfApp = async () => (await p.deps.files.listRemovable(Number.MAX_SAFE_INTEGER, 1000)).filter((f) => f.appId === w.appId).length;
    const before = await filesOfApp();
    const first = await upload(p, w.chatKey, { name: 'dot.png', bytes: image }, { 'Idempotency-Key': 'upload-1' });
    expect(first.status, first.text).toBe(201);
    const again = await upload(p, w.chatKey, { name: 'dot.png', bytes: image }, { 'Idempotency-Key': 'upload-1' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await filesOfApp()).toBe(before + 1);
    const other = await upload(p, w.chatKey, { name: 'dot.png', bytes: png(5, 5) }, { 'Idempotency-Key': 'upload-1' });
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ error: 'This Idempotency-Key was used with a different request' });
    expect(await filesOfApp()).toBe(before + 1);
  });

  describe('the official openai package', () => {
    let proxy: Server;
    let proxyUrl: string;
    const seen: { key: string | undefined }[] = [];
    beforeAll(async () => {
      // Forwards every request; the first answer is thrown away and replaced by a 502, as a load
      // balancer that lost the connection to the client's side would.
      proxy = createServer((req, res) => {
        seen.push({ key: req.headers['idempotency-key'] as string | undefined });
        const lose = seen.length === 1;
        const target = new URL(p.baseUrl);
        const upstream = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
          const chunks: Buffer[] = [];
          up.on('data', (c: Buffer) => chunks.push(c));
          up.on('end', () => {
            if (lose) return void res.writeHead(502, { 'Content-Type': 'application/json' }).end('{"error":"bad gateway"}');
            res.writeHead(up.statusCode ?? 500, up.headers).end(Buffer.concat(chunks));
          });
        });
        req.pipe(upstream);
      });
      await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
      proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((r) => proxy.close(() => r())));

    it('retries after a lost answer and gets the same turn, recorded once', async () => {
      const client = new OpenAI({ apiKey: w.chatKey, baseURL: `${proxyUrl}/api/v1`, maxRetries: 2 });
      const completion = await client.chat.completions.create(
        { model: w.appNameId, messages: [{ role: 'user', content: 'Retry-safe hello' }] },
        { headers: { 'Idempotency-Key': 'sdk-key-1' } },
      );
      expect(seen.map((s) => s.key)).toEqual(['sdk-key-1', 'sdk-key-1']);
      const sessionId = (completion as unknown as { chatSessionId: string }).chatSessionId;
      expect(completion.choices[0]!.message.content).toContain('Retry-safe hello');
      expect(await turnsOf(sessionId)).toBe(1);
      expect(await usageOf(sessionId)).toBe(1);
      // Without the key the retry would have started a second session with the same first message.
      const sessions = (await p.call('GET', '/api/v1/org/sessions?limit=100', { token: w.orgKey })).body.data.filter(
        (x: { title: string }) => x.title === 'Retry-safe hello',
      );
      expect(sessions.map((x: { id: string }) => x.id)).toEqual([sessionId]);
    });
  });
});
