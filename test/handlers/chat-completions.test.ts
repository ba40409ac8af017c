import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costPicoUsd, formatUsd } from '../../functions/tenancy/domain/pricing';
import { ScriptedTools, addCredits, chat, chatWorld, createChatKey, expectChatError, patchSettings, secondApp, turn, type ChatWorld } from '../support/chat';
import { TestClock } from '../support/clock';
import { startTestPlatform, type TestPlatform } from '../support/platform';

const HELLO = [{ role: 'user', content: 'Hello' }];
/** Never contacted: the scripted gateway stands in for the MCP peer (test/integration/chat-mcp-tools.test.ts uses a real one). */
const TOOL_CONNECTION = [{ name: 'crm', url: 'http://127.0.0.1:9/mcp', headers: {} }];

describe('POST /api/v1/chat/completions', () => {
  // Pinned: time moves only when a test says so, so rate-limit windows and `created` are known.
  const clock = new TestClock('2026-03-02T10:00:00.000Z', false);
  const tools = new ScriptedTools();
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform({ clock, tools, visibilityDelayMs: 0 });
  });
  afterAll(() => p.stop());

  const exportGet = (w: ChatWorld, path: string) => p.call('GET', `/api/v1/org${path}`, { token: w.orgKey });

  async function sessionIds(w: ChatWorld): Promise<string[]> {
    const res = await exportGet(w, '/sessions');
    expect(res.status, res.text).toBe(200);
    return res.body.data.map((s: { id: string }) => s.id);
  }

  async function transcript(w: ChatWorld, sessionId: string, include = '') {
    const res = await exportGet(w, `/sessions/${sessionId}/messages${include ? `?include=${include}` : ''}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data as {
      messages: { id: string; role: string; content: string; tools?: unknown[] }[];
      zdr: boolean;
      session: { id: string; title: string };
    };
  }

  async function usageRows(w: ChatWorld) {
    const res = await exportGet(w, '/usage');
    expect(res.status, res.text).toBe(200);
    return res.body.data as {
      session_id: string;
      model: string;
      source: string;
      input_tokens: number;
      output_tokens: number;
      cache_read_input_tokens: number;
      cache_creation_input_tokens: number;
      cost_usd: string;
    }[];
  }

  describe('authentication', () => {
    let authWorld: ChatWorld;
    beforeAll(async () => {
      authWorld = await chatWorld(p);
    });

    it('answers 401 { error: string } to a missing key, echoing X-Correlation-ID', async () => {
      const w = authWorld;
      const res = await chat(p, undefined, { model: w.appNameId, messages: HELLO }, { 'X-Correlation-ID': 'corr-missing-1' });
      expectChatError(res, 401);
      expect(res.headers.get('x-correlation-id')).toBe('corr-missing-1');
    });

    it('answers 401 to invalid keys and malformed Authorization headers', async () => {
      const w = authWorld;
      const body = JSON.stringify({ model: w.appNameId, messages: HELLO });
      for (const authorization of [
        `Bearer svc_chat_${'x'.repeat(40)}`,
        'Bearer nonsense',
        `Bearer ${w.chatKey}x`,
        `Basic ${w.chatKey}`,
        w.chatKey,
        'Bearer ',
      ]) {
        const res = await p.call('POST', '/api/v1/chat/completions', { body, headers: { Authorization: authorization, 'X-Correlation-ID': 'corr-invalid' } });
        expectChatError(res, 401);
        expect(res.headers.get('x-correlation-id')).toBe('corr-invalid');
      }
    });

    it('does not accept an org key as a chat key', async () => {
      const w = authWorld;
      expectChatError(await chat(p, w.orgKey, { model: w.appNameId, messages: HELLO }), 401);
    });

    it('answers 401 once the key is revoked', async () => {
      const w = await chatWorld(p);
      await turn(p, w, 'before');
      expect((await p.admin('DELETE', `/keys/${w.chatKeyId}`)).status).toBe(200);
      expectChatError(await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO }), 401);
    });

    it('answers 401 once the key has expired', async () => {
      const w = await chatWorld(p);
      const expiresAt = new Date(clock.nowUs() / 1000 + 60 * 60_000).toISOString();
      const key = await createChatKey(p, w.appId, { expiresAt });
      await turn(p, { ...w, chatKey: key.key }, 'still valid');
      clock.advance(2 * 60 * 60_000);
      expectChatError(await chat(p, key.key, { model: w.appNameId, messages: HELLO }), 401);
    });

    it('answers 401 to the key of a deleted app', async () => {
      const w = await chatWorld(p);
      expect((await p.admin('DELETE', `/apps/${w.appId}`)).status).toBe(202);
      expectChatError(await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO }), 401);
    });

    it('refuses an org on the free plan with 401 and a message saying the API is only available on paid plans', async () => {
      const w = await chatWorld(p, { plan: 'free' });
      const res = await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO }, { 'X-Correlation-ID': 'corr-free' });
      expectChatError(res, 401, /only available on paid plans/i);
      expect(res.headers.get('x-correlation-id')).toBe('corr-free');
    });

    it('generates a correlation id when none (or a malformed one) is given', async () => {
      const w = authWorld;
      const ok = await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO });
      expect(ok.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
      const echoed = await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO }, { 'X-Correlation-ID': 'corr-ok-7' });
      expect(echoed.headers.get('x-correlation-id')).toBe('corr-ok-7');
      const bad = await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO }, { 'X-Correlation-ID': 'bad id with spaces' });
      expect(bad.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe("validation, in the spec's order", () => {
    let v: ChatWorld;
    beforeAll(async () => {
      v = await chatWorld(p);
    });

    it('model not a string is 400, even when messages is bad too', async () => {
      const w = v;
      for (const body of [
        { messages: HELLO },
        { model: 12, messages: HELLO },
        { model: null, messages: [] },
        { model: ['x'], messages: 'hi' },
        { model: { id: w.appNameId } },
      ]) {
        expectChatError(await chat(p, w.chatKey, body), 400, /model must be a string/);
      }
    });

    it('messages not a non-empty array is 400, even when the model names no app', async () => {
      const w = v;
      for (const messages of [undefined, [], 'Hello', { role: 'user', content: 'Hello' }, null]) {
        expectChatError(await chat(p, w.chatKey, { model: w.appNameId, messages }), 400, /messages must be a non-empty array/);
        expectChatError(await chat(p, w.chatKey, { model: 'nobody-999999', messages, variables: { '1bad': 'x' } }), 400, /messages must be a non-empty array/);
      }
      // Text parts are taken (joined); any other part is refused as rule 8 says.
      expectChatError(
        await chat(p, w.chatKey, { model: w.appNameId, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/c.png' } }] }] }),
        400,
        /messages\[0\]\.content/,
      );
    });

    it("a model naming no app is 404, and so is another app's appNameId with this key", async () => {
      const w = v;
      const other = await chatWorld(p);
      const sibling = await secondApp(p, w.orgId);
      for (const model of ['nobody-999999', '', 'not an app name', other.appNameId, sibling.appNameId]) {
        expectChatError(await chat(p, w.chatKey, { model, messages: HELLO }), 404);
      }
      // The other apps are fine with their own keys.
      await turn(p, other, 'mine');
      await turn(p, sibling, 'mine too');
    });

    it('variables violations are 400, but only once model, messages and the app lookup pass (a bad model with bad variables is 404)', async () => {
      const w = v;
      const tooMany = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`v${i}`, 'x']));
      const violations: Record<string, unknown>[] = [
        tooMany,
        { v: 'x'.repeat(2049) },
        { '9lives': 'x' },
        { 'a.b': 'x' },
        { [`a${'b'.repeat(64)}`]: 'x' },
        { v: 5 },
      ];
      for (const variables of violations) {
        expectChatError(await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO, variables }), 400, /^variables/);
        expectChatError(await chat(p, w.chatKey, { model: 'nobody-999999', messages: HELLO, variables }), 404);
      }
      expectChatError(await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO, variables: ['a'] }), 400, /^variables/);
      // The limits themselves are allowed: 20 entries, 2048 characters, a 64-character name.
      const atLimit = { ...Object.fromEntries(Array.from({ length: 19 }, (_, i) => [`v${i}`, 'x'])), [`a${'b'.repeat(63)}`]: 'y'.repeat(2048) };
      await turn(p, w, 'limits', { variables: atLimit });
    });

    it('more than 100 file references is 400; an unknown fileId is 404 and never silently ignored', async () => {
      const w = v;
      const files = (n: number) => Array.from({ length: n }, (_, i) => ({ fileId: randomUUID(), fileName: `f${i}.png` }));
      expectChatError(await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO, files: files(101) }), 400, /files/);
      expectChatError(await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO, files: [{ fileId: 'f1' }] }), 400, /files\[0\]/);
      expectChatError(await chat(p, w.chatKey, { model: 'nobody-999999', messages: HELLO, files: files(101) }), 404);
      const unknown = files(1);
      expectChatError(await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO, files: unknown }), 404, new RegExp(unknown[0]!.fileId));
      expectChatError(await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO, files: files(100) }), 404);
    });

    it('answers the parameters and message shapes clients send by default, and refuses n > 1 and logprobs', async () => {
      const w = v;
      // What the openai package, the AI SDK and LangChain put in a plain call.
      const res = await chat(p, w.chatKey, {
        model: w.appNameId,
        messages: [
          { role: 'developer', content: 'Be brief.' },
          { role: 'user', name: 'bob', content: [{ type: 'text', text: 'Hello' }] },
        ],
        n: 1,
        seed: 7,
        user: 'end-user-1',
        presence_penalty: 0,
        frequency_penalty: 0,
        metadata: { team: 'support' },
        store: false,
        logprobs: false,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.choices[0].message.content).toMatch(/Hello/);
      expectChatError(await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO, n: 2 }), 400, /^n must be 1/);
      expectChatError(await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO, logprobs: true }), 400, /logprobs is not supported/);
    });

    it('answers 400 to unknown fields', async () => {
      const w = v;
      expectChatError(await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO, functions: [] }), 400, /functions/);
    });

    it('answers 400 (never 500 or 422) to malformed JSON and to JSON that is not an object', async () => {
      const w = v;
      for (const raw of ['{', '{"model":', '', 'null', '[]', '"text"', '42', '{"model":"a",}', '\u0000', "{'model':'x'}"]) {
        const res = await chat(p, w.chatKey, raw, { 'Content-Type': 'application/json' });
        expectChatError(res, 400);
      }
    });

    it('answers 400 when the Content-Type is not JSON, even with a valid JSON body', async () => {
      const w = v;
      const body = JSON.stringify({ model: w.appNameId, messages: HELLO });
      for (const type of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/octet-stream',
        'application/jsonp',
      ]) {
        expectChatError(await chat(p, w.chatKey, body, { 'Content-Type': type }), 400, /Content-Type/);
      }
      const none = await fetch(`${p.baseUrl}/api/v1/chat/completions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${w.chatKey}` },
        body: new Uint8Array(Buffer.from(body)),
      });
      expect(none.status).toBe(400);
      expect(await none.json()).toEqual({ error: expect.any(String) });
      await turn(p, w, 'charset is fine', {}, { 'Content-Type': 'application/json; charset=utf-8' });
    });

    it('creates no session for a refused request', async () => {
      const w = await chatWorld(p);
      await chat(p, w.chatKey, { model: w.appNameId, messages: [] });
      await chat(p, w.chatKey, { model: 'nobody-1', messages: HELLO });
      await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO, variables: { '-': 'x' } });
      await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO, files: [{ fileId: 'x', fileName: 'y.png' }] });
      await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO, chatSessionId: randomUUID() });
      expect(await sessionIds(w)).toEqual([]);
      expect(await usageRows(w)).toEqual([]);
    });
  });

  describe('402: credits and usage caps', () => {
    it("refuses a turn once the org's prepaid credits are used up, until credits are added", async () => {
      const w = await chatWorld(p);
      await addCredits(p, w.orgId, '0.000001');
      const first = await turn(p, w, 'spend my last micro-dollar');
      const refused = await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO });
      expectChatError(refused, 402, /credits/i);
      // Refused before anything happened: no new session, no usage row.
      expect(await sessionIds(w)).toEqual([first.chatSessionId]);
      expect(await usageRows(w)).toHaveLength(1);
      expectChatError(await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO, chatSessionId: first.chatSessionId }), 402);
      await addCredits(p, w.orgId, '1.00');
      await turn(p, w, 'topped up');
    });

    it("refuses a turn once the app's monthly usage cap is reached, until the cap is raised", async () => {
      const w = await chatWorld(p);
      await patchSettings(p, w.appId, { monthlyUsageCapUsd: '0.000001' });
      await turn(p, w, 'under the cap');
      expectChatError(await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO }), 402, /cap/i);
      await patchSettings(p, w.appId, { monthlyUsageCapUsd: '100.00' });
      await turn(p, w, 'cap raised');
    });

    it('refuses every turn under a cap of zero', async () => {
      const w = await chatWorld(p);
      await patchSettings(p, w.appId, { monthlyUsageCapUsd: '0' });
      expectChatError(await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO }), 402);
    });
  });

  describe('429: 120 requests per minute per key', () => {
    it('refuses the 121st call of a minute with Retry-After from the window, per key', async () => {
      // Move to 30.5 s into a fresh minute: the window ends in 29.5 s, so Retry-After is 30.
      const nowMs = clock.nowUs() / 1000;
      clock.advance(60_000 - (nowMs % 60_000) + 30_500);
      const w = await chatWorld(p);
      const other = await createChatKey(p, w.appId);
      await turn(p, w, 'call 1');
      // Calls 2..120: refused ones count too (the limit is on requests, not on turns).
      for (const size of [20, 20, 20, 20, 20, 19]) {
        const results = await Promise.all(Array.from({ length: size }, () => chat(p, w.chatKey, { model: w.appNameId, messages: [] })));
        expect(
          results.map((r) => r.status),
          results.map((r) => r.text).join('\n'),
        ).toEqual(Array(size).fill(400));
      }
      const limited = await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO }, { 'X-Correlation-ID': 'corr-429' });
      expectChatError(limited, 429);
      expect(limited.headers.get('retry-after')).toBe('30');
      expect(limited.headers.get('x-correlation-id')).toBe('corr-429');
      // Another key of the same app has its own window.
      await turn(p, { ...w, chatKey: other.key }, 'other key');
      clock.advance(29_000);
      const stillLimited = await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO });
      expect(stillLimited.status).toBe(429);
      expect(stillLimited.headers.get('retry-after')).toBe('1');
      clock.advance(1_000);
      await turn(p, w, 'next minute');
    });
  });

  describe('a successful turn', () => {
    let okWorld: ChatWorld;
    beforeAll(async () => {
      okWorld = await chatWorld(p);
    });

    it('answers the chat-completion shape with exact types', async () => {
      const w = okWorld;
      const before = Math.floor(clock.nowUs() / 1_000_000);
      const res = await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO }, { 'X-Correlation-ID': 'corr-ok' });
      expect(res.status, res.text).toBe(200);
      const after = Math.floor(clock.nowUs() / 1_000_000);
      const body = res.body;
      expect(Object.keys(body).sort()).toEqual(['chatSessionId', 'choices', 'created', 'id', 'model', 'object', 'usage']);
      expect(body.chatSessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(body.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
      expect(body.object).toBe('chat.completion');
      expect(Number.isInteger(body.created)).toBe(true);
      expect(body.created).toBeGreaterThanOrEqual(before);
      expect(body.created).toBeLessThanOrEqual(after);
      expect(body.model).toBe(w.appNameId);
      expect(body.choices).toEqual([{ index: 0, message: { role: 'assistant', content: 'Offline reply #1: Hello' }, finish_reason: 'stop' }]);
      // The offline model counts ceil(characters / 4): 'Hello' + '[]' (no tools) in, the reply out.
      expect(body.usage).toEqual({
        prompt_tokens: 2,
        completion_tokens: 6,
        total_tokens: 8,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      });
      for (const v of [body.usage.prompt_tokens, body.usage.completion_tokens, body.usage.total_tokens]) expect(Number.isInteger(v)).toBe(true);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('x-chat-session-id')).toBe(body.chatSessionId);
      expect(res.headers.get('x-correlation-id')).toBe('corr-ok');
    });

    it('gives every turn its own completion id', async () => {
      const w = okWorld;
      const a = await turn(p, w, 'one');
      const b = await turn(p, w, 'two', { chatSessionId: a.chatSessionId });
      expect(a.id).not.toBe(b.id);
    });

    it('passes the generation options on: max_tokens cuts with finish_reason length, stop cuts with stop', async () => {
      const w = okWorld;
      const cut = await turn(p, w, 'a long question for a short answer', { max_tokens: 2 });
      expect([cut.choices[0]!.message.content, cut.choices[0]!.finish_reason, cut.usage.completion_tokens]).toEqual(['Offline ', 'length', 2]);
      const stopped = await turn(p, w, 'alpha STOP beta', { stop: ['STOP'] });
      expect([stopped.choices[0]!.message.content, stopped.choices[0]!.finish_reason]).toEqual(['Offline reply #1: alpha ', 'stop']);
    });
  });

  describe('sessions', () => {
    let s: ChatWorld;
    beforeAll(async () => {
      s = await chatWorld(p);
    });

    it('starts a new session for every request without chatSessionId', async () => {
      const w = await chatWorld(p);
      const a = await turn(p, w, 'first');
      const b = await turn(p, w, 'first again');
      expect(a.chatSessionId).not.toBe(b.chatSessionId);
      expect(b.choices[0]!.message.content).toBe('Offline reply #1: first again');
      expect((await sessionIds(w)).sort()).toEqual([a.chatSessionId, b.chatSessionId].sort());
    });

    it('continues a session named by chatSessionId in the body: the model sees the stored history', async () => {
      const w = s;
      const a = await turn(p, w, 'first');
      const b = await turn(p, w, 'second', { chatSessionId: a.chatSessionId });
      expect(b.chatSessionId).toBe(a.chatSessionId);
      expect(b.choices[0]!.message.content).toBe('Offline reply #2: second');
      const c = await turn(p, w, 'third', { chatSessionId: a.chatSessionId });
      expect(c.choices[0]!.message.content).toBe('Offline reply #3: third');
    });

    it('continues a session named by the X-Chat-Session-ID header', async () => {
      const w = s;
      const a = await turn(p, w, 'first');
      const res = await chat(p, w.chatKey, { model: w.appNameId, messages: [{ role: 'user', content: 'second' }] }, { 'X-Chat-Session-ID': a.chatSessionId });
      expect(res.status, res.text).toBe(200);
      expect(res.body.chatSessionId).toBe(a.chatSessionId);
      expect(res.headers.get('x-chat-session-id')).toBe(a.chatSessionId);
      expect(res.body.choices[0].message.content).toBe('Offline reply #2: second');
    });

    it('accepts the body and the header naming the same session, and refuses them naming different ones with 400', async () => {
      const w = s;
      const a = await turn(p, w, 'first');
      const b = await turn(p, w, 'other');
      const same = await turn(p, w, 'second', { chatSessionId: a.chatSessionId }, { 'X-Chat-Session-ID': a.chatSessionId });
      expect(same.choices[0]!.message.content).toBe('Offline reply #2: second');
      const conflict = await chat(
        p,
        w.chatKey,
        { model: w.appNameId, messages: HELLO, chatSessionId: a.chatSessionId },
        { 'X-Chat-Session-ID': b.chatSessionId },
      );
      expectChatError(conflict, 400, /chatSessionId/);
      expect((await transcript(w, a.chatSessionId)).messages).toHaveLength(4);
      expect((await transcript(w, b.chatSessionId)).messages).toHaveLength(2);
    });

    it('answers 404 to a session of another app of the same org, and writes nothing to it', async () => {
      const w = s;
      const sibling = await secondApp(p, w.orgId);
      const theirs = await turn(p, sibling, 'sibling session');
      expectChatError(await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO, chatSessionId: theirs.chatSessionId }), 404);
      expectChatError(await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO }, { 'X-Chat-Session-ID': theirs.chatSessionId }), 404);
      expect((await transcript(w, theirs.chatSessionId)).messages.map((m) => m.content)).toEqual(['sibling session', 'Offline reply #1: sibling session']);
    });

    it('answers 404 to an unknown session id, whatever its form', async () => {
      const w = s;
      for (const id of [randomUUID(), 'not-a-session', 'x'.repeat(3000), 'SESSION#x']) {
        expectChatError(await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO, chatSessionId: id }), 404);
        expectChatError(await chat(p, w.chatKey, { model: w.appNameId, messages: HELLO }, { 'X-Chat-Session-ID': id }), 404);
      }
    });

    it('does not store the history again when a client resends the whole conversation', async () => {
      const w = s;
      const system = { role: 'system', content: 'Be brief.' };
      const a = await turn(p, w, [system, { role: 'user', content: 'first' }]);
      const r1 = a.choices[0]!.message.content;
      const history = [system, { role: 'user', content: 'first' }, { role: 'assistant', content: r1 }];
      const b = await turn(p, w, [...history, { role: 'user', content: 'second' }], { chatSessionId: a.chatSessionId });
      expect(b.choices[0]!.message.content).toBe('Offline reply #2: second');
      const r2 = b.choices[0]!.message.content;
      await turn(p, w, [...history, { role: 'user', content: 'second' }, { role: 'assistant', content: r2 }, { role: 'user', content: 'third' }], {
        chatSessionId: a.chatSessionId,
      });
      const stored = (await transcript(w, a.chatSessionId)).messages.map((m) => [m.role, m.content]);
      expect(stored).toEqual([
        ['system', 'Be brief.'],
        ['user', 'first'],
        ['assistant', 'Offline reply #1: first'],
        ['user', 'second'],
        ['assistant', 'Offline reply #2: second'],
        ['user', 'third'],
        ['assistant', 'Offline reply #3: third'],
      ]);
    });
  });

  describe('Zero Data Retention', () => {
    it('persists no message (and no message text as the session title) but still records usage', async () => {
      const w = await chatWorld(p);
      await patchSettings(p, w.appId, { zeroDataRetention: true });
      const a = await turn(p, w, 'my secret medical question');
      expect(a.choices[0]!.message.content).toBe('Offline reply #1: my secret medical question');
      const t = await transcript(w, a.chatSessionId, 'tool_details');
      expect(t.messages).toEqual([]);
      expect(t.zdr).toBe(true);
      // Not merely hidden by the export: nothing was stored.
      expect(await p.deps.sessions.listMessages(a.chatSessionId)).toEqual([]);
      expect(JSON.stringify(t.session)).not.toContain('secret');
      const sessions = await exportGet(w, '/sessions');
      expect(sessions.body.data.map((s: { id: string }) => s.id)).toEqual([a.chatSessionId]);
      expect(JSON.stringify(sessions.body)).not.toContain('secret');
      const rows = await usageRows(w);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        session_id: a.chatSessionId,
        model: 'offline',
        input_tokens: a.usage.prompt_tokens,
        output_tokens: a.usage.completion_tokens,
      });
    });

    it('answers a continued session from the history the client resends (the platform keeps none)', async () => {
      const w = await chatWorld(p);
      await patchSettings(p, w.appId, { zeroDataRetention: true });
      const a = await turn(p, w, 'first');
      const b = await turn(
        p,
        w,
        [
          { role: 'user', content: 'first' },
          { role: 'assistant', content: a.choices[0]!.message.content },
          { role: 'user', content: 'second' },
        ],
        { chatSessionId: a.chatSessionId },
      );
      expect(b.choices[0]!.message.content).toBe('Offline reply #2: second');
      expect((await transcript(w, a.chatSessionId)).messages).toEqual([]);
      expect(await p.deps.sessions.listMessages(a.chatSessionId)).toEqual([]);
      expect(await usageRows(w)).toHaveLength(2);
    });
  });

  describe('the turn in the Org Export lists (area A)', () => {
    it('shows a plain turn as a session, its two messages and one usage row', async () => {
      const w = await chatWorld(p);
      const a = await turn(p, w, 'Where is my order?');
      const sessions = await exportGet(w, '/sessions');
      expect(sessions.body.data).toHaveLength(1);
      expect(sessions.body.data[0]).toMatchObject({ id: a.chatSessionId, app_id: w.appId, consumer_id: null, source: 'API', title: 'Where is my order?' });
      expect(sessions.body.data[0].last_message_at).not.toBeNull();
      const t = await transcript(w, a.chatSessionId, 'tool_details');
      expect(t.messages.map((m) => [m.role, m.content, 'tools' in m])).toEqual([
        ['user', 'Where is my order?', false],
        ['assistant', 'Offline reply #1: Where is my order?', false],
      ]);
      const rows = await usageRows(w);
      expect(rows).toEqual([
        expect.objectContaining({
          app_id: w.appId,
          session_id: a.chatSessionId,
          consumer_id: null,
          model: 'offline',
          source: 'api',
          input_tokens: a.usage.prompt_tokens,
          output_tokens: a.usage.completion_tokens,
          cache_read_input_tokens: 0,
          cache_creation_input_tokens: 0,
          cost_usd: formatUsd(
            costPicoUsd('offline', {
              inputTokens: a.usage.prompt_tokens,
              outputTokens: a.usage.completion_tokens,
              cacheReadInputTokens: 0,
              cacheCreationInputTokens: 0,
            }),
          ),
        }),
      ]);
    });

    it('shows a tool turn with a tool marker on the assistant message and one usage row per model call', async () => {
      const w = await chatWorld(p);
      await patchSettings(p, w.appId, { mcpConnections: TOOL_CONNECTION });
      const a = await turn(p, w, 'use lookup_order {"orderId":"42"}');
      expect(a.choices[0]!.message.content).toBe('Tool result: Order 42: shipped');
      expect(a.choices[0]!.finish_reason).toBe('stop');
      expect(tools.calls.at(-1)).toMatchObject({ connection: 'crm', name: 'lookup_order', input: { orderId: '42' } });

      const t = await transcript(w, a.chatSessionId, 'tool_details');
      expect(t.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
      expect(t.messages[0]).not.toHaveProperty('tools');
      expect(t.messages[1]).toMatchObject({
        content: 'Tool result: Order 42: shipped',
        tools: [{ id: 'call_offline_1_lookup_order', name: 'lookup_order', type: 'tool', success: true }],
      });
      const plain = await transcript(w, a.chatSessionId);
      expect(plain.messages[1]).not.toHaveProperty('tools');

      const rows = await usageRows(w);
      expect(rows).toHaveLength(2);
      expect(rows.every((r) => r.session_id === a.chatSessionId && r.model === 'offline' && r.source === 'api')).toBe(true);
      expect(rows.reduce((s, r) => s + r.input_tokens, 0)).toBe(a.usage.prompt_tokens);
      expect(rows.reduce((s, r) => s + r.output_tokens, 0)).toBe(a.usage.completion_tokens);
      for (const r of rows) {
        expect(r.cost_usd).toBe(
          formatUsd(
            costPicoUsd('offline', { inputTokens: r.input_tokens, outputTokens: r.output_tokens, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 }),
          ),
        );
      }
      expect(await sessionIds(w)).toEqual([a.chatSessionId]);
    });

    it('marks a tool that answered with an error as success: false', async () => {
      const w = await chatWorld(p);
      await patchSettings(p, w.appId, { mcpConnections: TOOL_CONNECTION });
      const a = await turn(p, w, 'call broken_tool');
      expect(a.choices[0]!.message.content).toBe('Tool result: the CRM is down');
      const t = await transcript(w, a.chatSessionId, 'tool_details');
      expect(t.messages[1]!.tools).toEqual([{ id: 'call_offline_1_broken_tool', name: 'broken_tool', type: 'tool', success: false }]);
    });
  });
});
