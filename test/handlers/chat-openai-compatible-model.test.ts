import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COMPLETIONS, ScriptedTools, chat, chatWorld, patchSettings, sseData, turn, type ChatWorld } from '../support/chat';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { MAX_ANSWER_BYTES } from '../../functions/chat/domain/answer-limit';

const answer = (content: string | null, extra: Record<string, unknown> = {}, usage: Record<string, unknown> = { prompt_tokens: 11, completion_tokens: 4 }) => ({
  id: 'chatcmpl-up',
  object: 'chat.completion',
  created: 1,
  model: 'test-model',
  choices: [{ index: 0, message: { role: 'assistant', content, ...extra }, finish_reason: extra.tool_calls ? 'tool_calls' : 'stop' }],
  usage,
});
const chunk = (delta: unknown, finish_reason: string | null = null) => ({
  id: 'chatcmpl-up',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'test-model',
  choices: [{ index: 0, delta, finish_reason }],
});

describe('an app whose model is openai:<model>, end to end', () => {
  let upstream: FakeOpenAiServer;
  let p: TestPlatform;
  let w: ChatWorld;
  beforeAll(async () => {
    upstream = await startFakeOpenAiServer();
    p = await startTestPlatform({ visibilityDelayMs: 0, openAiBaseUrl: upstream.baseUrl, openAiApiKey: 'sk-upstream', tools: new ScriptedTools() });
    w = await chatWorld(p);
    await patchSettings(p, w.appId, { model: 'openai:test-model' });
  });
  afterAll(async () => {
    await p.stop();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.requests.length = 0;
  });

  const usage = async (sessionId: string) => {
    const res = await p.call('GET', '/api/v1/org/usage', { token: w.orgKey });
    return (res.body.data as { session_id: string; model: string; input_tokens: number; output_tokens: number; cost_usd: string }[]).filter(
      (r) => r.session_id === sessionId,
    );
  };

  it('sends the conversation to the configured endpoint and answers with its reply', async () => {
    upstream.reply({ kind: 'json', body: answer('Hi from upstream') });
    const a = await turn(
      p,
      w,
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello' },
      ],
      { temperature: 0.1 },
    );
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]!.url).toBe('/v1/chat/completions');
    expect(upstream.requests[0]!.headers.authorization).toBe('Bearer sk-upstream');
    expect(upstream.requests[0]!.body).toEqual({
      model: 'test-model',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello' },
      ],
      temperature: 0.1,
    });
    // The platform's own shape: the app's appNameId as model, the platform's session and usage.
    expect(a.choices).toEqual([{ index: 0, message: { role: 'assistant', content: 'Hi from upstream' }, finish_reason: 'stop' }]);
    expect(a.usage).toEqual({
      prompt_tokens: 11,
      completion_tokens: 4,
      total_tokens: 15,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
    expect(await usage(a.chatSessionId)).toEqual([expect.objectContaining({ model: 'test-model', input_tokens: 11, output_tokens: 4, cost_usd: '0.00' })]);

    // A continued session sends the stored history upstream.
    upstream.reply({ kind: 'json', body: answer('Second answer') });
    await turn(p, w, 'And now?', { chatSessionId: a.chatSessionId });
    expect(upstream.requests[1]!.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi from upstream' },
      { role: 'user', content: 'And now?' },
    ]);
  });

  it('streams the upstream deltas through', async () => {
    upstream.reply({
      kind: 'sse',
      events: [
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Up' }),
        chunk({ content: 'stream' }),
        chunk({}, 'stop'),
        { ...chunk({}), choices: [], usage: { prompt_tokens: 5, completion_tokens: 2 } },
      ],
    });
    const res = await fetch(`${p.baseUrl}${COMPLETIONS}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${w.chatKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        model: w.appNameId,
        messages: [{ role: 'user', content: 'stream please' }],
        stream: true,
        stream_options: { include_usage: true },
      }),
    });
    expect(res.status).toBe(200);
    const data = sseData(await res.text());
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d));
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Upstream');
    expect(chunks.at(-1).usage).toEqual({
      prompt_tokens: 5,
      completion_tokens: 2,
      total_tokens: 7,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
    expect(upstream.requests[0]!.body).toMatchObject({ model: 'test-model', stream: true, stream_options: { include_usage: true } });
  });

  it('runs the tool loop with the upstream model: a tool call, the result sent back, then the answer', async () => {
    const t = await chatWorld(p);
    await patchSettings(p, t.appId, { model: 'openai:test-model', mcpConnections: [{ name: 'crm', url: 'http://127.0.0.1:9/mcp', headers: {} }] });
    upstream.reply(
      {
        kind: 'json',
        body: answer(
          null,
          { tool_calls: [{ id: 'call_up_1', type: 'function', function: { name: 'lookup_order', arguments: '{"orderId":"42"}' } }] },
          { prompt_tokens: 20, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 6 }, completion_tokens_details: { reasoning_tokens: 2 } },
        ),
      },
      { kind: 'json', body: answer('Order 42 has shipped.', {}, { prompt_tokens: 30, completion_tokens: 6 }) },
    );
    const res = await chat(p, t.chatKey, { model: t.appNameId, messages: [{ role: 'user', content: 'Where is order 42?' }] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.choices[0].message.content).toBe('Order 42 has shipped.');
    expect(res.body.usage).toEqual({
      prompt_tokens: 50,
      completion_tokens: 11,
      total_tokens: 61,
      prompt_tokens_details: { cached_tokens: 6 },
      completion_tokens_details: { reasoning_tokens: 2 },
    });
    expect(upstream.requests).toHaveLength(2);
    expect(upstream.requests[0]!.body.tools.map((x: { function: { name: string } }) => x.function.name)).toEqual(['lookup_order', 'broken_tool']);
    expect(upstream.requests[1]!.body.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_up_1', type: 'function', function: { name: 'lookup_order', arguments: '{"orderId":"42"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_up_1', content: 'Order 42: shipped' },
    ]);
    const messages = await p.call('GET', `/api/v1/org/sessions/${res.body.chatSessionId}/messages?include=tool_details`, { token: t.orgKey });
    expect(messages.body.data.messages[1].tools).toEqual([{ id: 'call_up_1', name: 'lookup_order', type: 'tool', success: true }]);
    const rows = (await p.call('GET', '/api/v1/org/usage', { token: t.orgKey })).body.data;
    // The cached part of the first call's prompt is its own column.
    expect(rows.map((r: { input_tokens: number; cache_read_input_tokens: number }) => [r.input_tokens, r.cache_read_input_tokens]).sort()).toEqual([
      [14, 6],
      [30, 0],
    ]);
  });

  it('answers a generic 500 when the upstream fails, without its details', async () => {
    upstream.reply({ kind: 'error', status: 502, body: '{"error":{"message":"upstream secret detail"}}' });
    const res = await chat(p, w.chatKey, { model: w.appNameId, messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Internal server error' });
  });

  describe('an answer longer than a message may be (256 KiB of UTF-8)', () => {
    const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
    const exported = async (sessionId: string) => {
      const res = await p.call('GET', `/api/v1/org/sessions/${sessionId}/messages`, { token: w.orgKey });
      return (res.body.data.messages as { role: string; content: string }[]).map((m) => [m.role, m.content]);
    };

    it('is cut at the limit on a character boundary, ends with finish_reason length, and is exported whole as sent', async () => {
      // 'é' is two bytes and the limit is even: one leading ASCII byte puts the limit inside an 'é'.
      const long = `x${'é'.repeat(200_000)}`;
      upstream.reply({ kind: 'json', body: answer(long, {}, { prompt_tokens: 3, completion_tokens: 90_000 }) });
      const a = await turn(p, w, 'Say a lot', {}, { 'Idempotency-Key': 'long-answer-1' });
      const content = a.choices[0]!.message.content;
      expect(bytes(content)).toBe(MAX_ANSWER_BYTES - 1);
      expect(long.startsWith(content)).toBe(true);
      expect(a.choices[0]!.finish_reason).toBe('length');
      // The model's whole output is billed, although only the part that fits is kept.
      expect(a.usage.completion_tokens).toBe(90_000);
      expect(await exported(a.chatSessionId)).toEqual([
        ['user', 'Say a lot'],
        ['assistant', content],
      ]);
      // A retry replays the stored answer.
      const replay = await chat(
        p,
        w.chatKey,
        { model: w.appNameId, messages: [{ role: 'user', content: 'Say a lot' }] },
        { 'Idempotency-Key': 'long-answer-1' },
      );
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(a);
      expect(upstream.requests).toHaveLength(1);
    });

    it('is kept whole when it is exactly the limit, and replayed even when its JSON outgrows a DynamoDB item', async () => {
      // Quotes double when JSON-escaped: the stored answer is over 500 KB before it is gzipped.
      const exact = `${'"'.repeat(MAX_ANSWER_BYTES - 4)}😀`;
      upstream.reply({ kind: 'json', body: answer(exact) });
      const a = await turn(p, w, 'Exactly enough', {}, { 'Idempotency-Key': 'exact-answer-1' });
      expect(a.choices[0]!.message.content).toBe(exact);
      expect(a.choices[0]!.finish_reason).toBe('stop');
      const replay = await chat(
        p,
        w.chatKey,
        { model: w.appNameId, messages: [{ role: 'user', content: 'Exactly enough' }] },
        { 'Idempotency-Key': 'exact-answer-1' },
      );
      expect(replay.status, replay.text.slice(0, 200)).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(a);
      upstream.reply({ kind: 'json', body: answer(`${exact}z`) });
      const over = await turn(p, w, 'One byte more');
      expect(over.choices[0]!.message.content).toBe(exact);
      expect(over.choices[0]!.finish_reason).toBe('length');
    });

    it('streams up to the limit, then ends with finish_reason length, runs no tool the model asked for after it, and reports the usage', async () => {
      const t = await chatWorld(p);
      await patchSettings(p, t.appId, { model: 'openai:test-model', mcpConnections: [{ name: 'crm', url: 'http://127.0.0.1:9/mcp', headers: {} }] });
      const piece = '😀'.repeat(16_384); // 64 KiB a chunk, four bytes a character
      const call = { index: 0, id: 'call_late', type: 'function', function: { name: 'lookup_order', arguments: '{"orderId":"7"}' } };
      upstream.reply({
        kind: 'sse',
        events: [
          chunk({ role: 'assistant', content: '' }),
          chunk({ content: 'ab' }),
          ...Array.from({ length: 6 }, () => chunk({ content: piece })),
          chunk({ tool_calls: [call] }),
          chunk({}, 'tool_calls'),
          { ...chunk({}), choices: [], usage: { prompt_tokens: 9, completion_tokens: 98_000 } },
        ],
      });
      const res = await fetch(`${p.baseUrl}${COMPLETIONS}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${t.chatKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          model: t.appNameId,
          messages: [{ role: 'user', content: 'Stream a lot' }],
          stream: true,
          stream_options: { include_usage: true },
        }),
      });
      expect(res.status).toBe(200);
      const chunks = sseData(await res.text())
        .slice(0, -1)
        .map((d) => JSON.parse(d));
      const content = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
      // 2 ASCII bytes, then whole 4-byte characters: the last one that fits ends 2 bytes short of the limit.
      expect(bytes(content)).toBe(MAX_ANSWER_BYTES - 2);
      expect(content).toBe(`ab${'😀'.repeat((MAX_ANSWER_BYTES - 4) / 4)}`);
      expect(chunks.flatMap((c) => c.choices.map((x: { finish_reason: string | null }) => x.finish_reason)).filter(Boolean)).toEqual(['length']);
      expect(chunks.at(-1).usage).toEqual({
        prompt_tokens: 9,
        completion_tokens: 98_000,
        total_tokens: 98_009,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      });
      expect(upstream.requests).toHaveLength(1);
      const sessionId = res.headers.get('x-chat-session-id')!;
      const messages = await p.call('GET', `/api/v1/org/sessions/${sessionId}/messages?include=tool_details`, { token: t.orgKey });
      expect(messages.body.data.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
        ['user', 'Stream a lot'],
        ['assistant', content],
      ]);
      expect(messages.body.data.messages[1].tools).toBeUndefined();
    });
  });
});
