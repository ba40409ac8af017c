/**
 * Structured output (`response_format`) on POST /api/v1/chat/completions over HTTP: with the offline model,
 * and with an OpenAI-compatible upstream (a loopback fake that records what it is sent), which also shows
 * how client tools, tool_choice and parallel_tool_calls travel upstream and come back.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exampleOf } from '../../functions/chat/adapters/offline-json-example';
import { NO_CLIENT_RESULT } from '../../functions/chat/app/prepare-chat-turn';
import { COMPLETIONS, ScriptedTools, chat, chatWorld, expectChatError, patchSettings, sseData, type ChatWorld } from '../support/chat';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestPlatform, type TestPlatform, type TestResponse } from '../support/platform';

const ajv = new Ajv2020({ strict: false, allErrors: true });
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
(addFormats as unknown as (a: Ajv2020) => void)(ajv);

const PERSON_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 2 },
    age: { type: 'integer', minimum: 18, maximum: 130 },
    email: { type: 'string', format: 'email' },
    tags: { type: 'array', items: { enum: ['vip', 'new'] }, minItems: 2 },
    address: { $ref: '#/$defs/address' },
    nickname: { type: ['string', 'null'] },
  },
  required: ['name', 'age', 'email', 'tags', 'address', 'nickname'],
  additionalProperties: false,
  $defs: {
    address: {
      type: 'object',
      properties: { city: { type: 'string' }, zip: { type: 'string', minLength: 5, maxLength: 5 } },
      required: ['city', 'zip'],
      additionalProperties: false,
    },
  },
};
const PERSON_FORMAT = { type: 'json_schema', json_schema: { name: 'person', schema: PERSON_SCHEMA, strict: true } };
const SIMPLE_SCHEMA = {
  type: 'object',
  properties: { answer: { type: 'string' }, score: { type: 'integer', minimum: 0 } },
  required: ['answer', 'score'],
  additionalProperties: false,
};
const SIMPLE_FORMAT = { type: 'json_schema', json_schema: { name: 'verdict', schema: SIMPLE_SCHEMA, strict: true } };
const WEATHER_PARAMETERS = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
const WEATHER = { type: 'function', function: { name: 'get_weather', description: 'The weather of a city', parameters: WEATHER_PARAMETERS } };
const TIME = { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: {} } } };
const TOOL_CONNECTION = [{ name: 'crm', url: 'http://127.0.0.1:9/mcp', headers: {} }];
const REPAIR_PREFIX = "The model's answer did not match response_format after one repair attempt: ";

function expectValid(schema: Record<string, unknown>, text: string): unknown {
  const value: unknown = JSON.parse(text);
  const validate = ajv.compile(schema);
  expect(validate(value), `${text}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  return value;
}

/** What a turn test needs: a platform, a way to call it, the export. */
function harness(get: () => TestPlatform) {
  const send = (w: ChatWorld, body: Record<string, unknown>): Promise<TestResponse> => chat(get(), w.chatKey, { model: w.appNameId, ...body });
  const ok = async (w: ChatWorld, body: Record<string, unknown>) => {
    const res = await send(w, body);
    expect(res.status, res.text).toBe(200);
    return res.body as {
      chatSessionId: string;
      choices: {
        message: { role: string; content: string; tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[] };
        finish_reason: string;
      }[];
      usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    };
  };
  const streamed = async (w: ChatWorld, body: Record<string, unknown>) => {
    const res = await fetch(`${get().baseUrl}${COMPLETIONS}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${w.chatKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: w.appNameId, stream: true, ...body }),
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const data = sseData(text);
    expect(data.at(-1)).toBe('[DONE]');
    const events = data.slice(0, -1).map((d) => JSON.parse(d));
    const chunks = events.filter((e) => 'choices' in e);
    return {
      headers: res.headers,
      events,
      choices: chunks.map((c) => c.choices[0]),
      /** The content deltas, the role chunk's empty one left out. */
      contents: chunks.map((c) => c.choices[0]?.delta?.content).filter((c: unknown) => typeof c === 'string' && c !== ''),
    };
  };
  const transcript = async (w: ChatWorld, sessionId: string) => {
    const res = await get().call('GET', `/api/v1/org/sessions/${sessionId}/messages?include=tool_details`, { token: w.orgKey });
    expect(res.status, res.text).toBe(200);
    return res.body.data.messages as { role: string; content: string; tools?: unknown[] }[];
  };
  const usageRows = async (w: ChatWorld) => {
    const res = await get().call('GET', '/api/v1/org/usage', { token: w.orgKey });
    expect(res.status, res.text).toBe(200);
    return res.body.data as { session_id: string; app_id: string; model: string; input_tokens: number; output_tokens: number }[];
  };
  return { send, ok, streamed, transcript, usageRows };
}

describe('structured output with the offline model', () => {
  let p: TestPlatform;
  let w: ChatWorld;
  const { send, ok, streamed, transcript, usageRows } = harness(() => p);
  beforeAll(async () => {
    p = await startTestPlatform({ visibilityDelayMs: 0, tools: new ScriptedTools() });
    w = await chatWorld(p);
  });
  afterAll(() => p.stop());

  it('json_object: the answer is a JSON object {reply}, stored as sent', async () => {
    const res = await ok(w, { messages: [{ role: 'user', content: 'Hello' }], response_format: { type: 'json_object' } });
    expect(res.choices[0]!.finish_reason).toBe('stop');
    expect(JSON.parse(res.choices[0]!.message.content)).toEqual({ reply: 'Offline reply #1: Hello' });
    expect((await transcript(w, res.chatSessionId))[1]!.content).toBe(res.choices[0]!.message.content);
  });

  it('json_schema (strict): the answer is valid against the schema', async () => {
    const res = await ok(w, { messages: [{ role: 'user', content: 'Who am I?' }], response_format: PERSON_FORMAT });
    expect(res.choices[0]!.finish_reason).toBe('stop');
    const value = expectValid(PERSON_SCHEMA, res.choices[0]!.message.content);
    expect(value).toEqual(exampleOf(PERSON_SCHEMA));
    // Not only objects: any schema.
    const list = { type: 'array', items: { type: 'integer', minimum: 3 }, minItems: 2 };
    const arr = await ok(w, {
      messages: [{ role: 'user', content: 'numbers' }],
      response_format: { type: 'json_schema', json_schema: { name: 'numbers', schema: list } },
    });
    expectValid(list, arr.choices[0]!.message.content);
  });

  it('text (explicit) is the plain answer', async () => {
    const res = await ok(w, { messages: [{ role: 'user', content: 'Hello' }], response_format: { type: 'text' } });
    expect(res.choices[0]!.message.content).toBe('Offline reply #1: Hello');
  });

  it('streams a structured answer as one content delta holding the whole JSON', async () => {
    for (const [response_format, schema] of [
      [PERSON_FORMAT, PERSON_SCHEMA],
      [{ type: 'json_object' }, { type: 'object', required: ['reply'] }],
    ] as const) {
      const s = await streamed(w, { messages: [{ role: 'user', content: 'Stream it' }], response_format });
      expect(s.contents).toHaveLength(1);
      expectValid(schema, s.contents[0]);
      expect(s.choices[0]).toEqual({ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null });
      expect(s.choices.at(-1)).toEqual({ index: 0, delta: {}, finish_reason: 'stop' });
      expect(s.choices).toHaveLength(3);
      expect((await transcript(w, s.headers.get('x-chat-session-id')!))[1]!.content).toBe(s.contents[0]);
    }
  });

  it('hands a client tool call back unchecked, and checks the answer that follows the result', async () => {
    const first = await ok(w, { messages: [{ role: 'user', content: 'use get_weather {"city":"Lima"}' }], tools: [WEATHER], response_format: SIMPLE_FORMAT });
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    expect(first.choices[0]!.message.tool_calls!.map((c) => c.function.arguments)).toEqual(['{"city":"Lima"}']);
    const second = await ok(w, {
      chatSessionId: first.chatSessionId,
      tools: [WEATHER],
      response_format: SIMPLE_FORMAT,
      messages: [{ role: 'tool', tool_call_id: first.choices[0]!.message.tool_calls![0]!.id, content: 'mild' }],
    });
    expect(second.choices[0]!.finish_reason).toBe('stop');
    expectValid(SIMPLE_SCHEMA, second.choices[0]!.message.content);
  });

  it('checks the answer after the platform ran an MCP tool', async () => {
    const m = await chatWorld(p);
    await patchSettings(p, m.appId, { mcpConnections: TOOL_CONNECTION });
    const res = await ok(m, { messages: [{ role: 'user', content: 'use lookup_order {"orderId":"42"}' }], response_format: { type: 'json_object' } });
    expect(JSON.parse(res.choices[0]!.message.content)).toEqual({ reply: 'Tool result: Order 42: shipped' });
  });

  it('fails with a 500 naming the problems when the answer stays invalid after the repair, and bills both model calls', async () => {
    const fresh = await chatWorld(p);
    // The offline model cannot satisfy a pattern: its answer and its repair are both invalid.
    const schema = { type: 'object', properties: { code: { type: 'string', pattern: '^[0-9]{4}$' } }, required: ['code'] };
    const res = await send(fresh, {
      messages: [{ role: 'user', content: 'a code' }],
      response_format: { type: 'json_schema', json_schema: { name: 'code', schema } },
    });
    expectChatError(res, 500);
    expect(res.body.error.startsWith(REPAIR_PREFIX)).toBe(true);
    expect(res.body.error.slice(REPAIR_PREFIX.length)).toMatch(/^#\/code: /);
    expect(res.headers.get('x-chat-session-id')).toBeNull();
    const rows = await usageRows(fresh);
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.model === 'offline' && r.session_id === rows[0]!.session_id)).toBe(true);
    // No message of the failed turn is stored.
    expect(await transcript(fresh, rows[0]!.session_id)).toEqual([]);

    // Streamed, the status is already sent: the failure is an error event before [DONE].
    const s = await streamed(fresh, {
      messages: [{ role: 'user', content: 'a code' }],
      response_format: { type: 'json_schema', json_schema: { name: 'code', schema } },
    });
    expect(s.contents).toEqual([]);
    expect(s.events.at(-1)).toEqual({ error: { message: 'The model failed while streaming; retry the request', type: 'server_error' } });
  });

  it('answers a cut structured answer (max_tokens) with finish_reason length, unchecked', async () => {
    const res = await ok(w, { messages: [{ role: 'user', content: 'Hello' }], response_format: { type: 'json_object' }, max_tokens: 2 });
    expect(res.choices[0]!.finish_reason).toBe('length');
    expect(res.choices[0]!.message.content).toBe('{"reply"');
  });

  // A structured answer cut short is not checked (finish_reason says it is incomplete); a stream still
  // sends it, exactly as it is stored.
  it('streams a cut structured answer as it stores it', async () => {
    const s = await streamed(w, { messages: [{ role: 'user', content: 'Hello' }], response_format: { type: 'json_object' }, max_tokens: 2 });
    expect(s.choices.at(-1)!.finish_reason).toBe('length');
    const stored = (await transcript(w, s.headers.get('x-chat-session-id')!))[1]!.content;
    expect(stored).toBe('{"reply"');
    expect(s.contents.join('')).toBe(stored);
  });
});

describe('structured output and client tools with an OpenAI-compatible upstream', () => {
  let upstream: FakeOpenAiServer;
  let p: TestPlatform;
  let w: ChatWorld;
  const mcp = new ScriptedTools();
  const { send, ok, streamed, transcript, usageRows } = harness(() => p);

  const answer = (content: string | null, extra: Record<string, unknown> = {}, usage = { prompt_tokens: 11, completion_tokens: 4 }) => ({
    kind: 'json' as const,
    body: {
      id: 'chatcmpl-up',
      object: 'chat.completion',
      created: 1,
      model: 'test-model',
      choices: [{ index: 0, message: { role: 'assistant', content, ...extra }, finish_reason: extra.tool_calls ? 'tool_calls' : 'stop' }],
      usage,
    },
  });
  const upCall = (id: string, name: string, args: string) => ({ id, type: 'function', function: { name, arguments: args } });
  const chunk = (delta: unknown, finish_reason: string | null = null) => ({
    id: 'chatcmpl-up',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'test-model',
    choices: [{ index: 0, delta, finish_reason }],
  });
  const sent = (i: number) => upstream.requests[i]!.body;

  beforeAll(async () => {
    upstream = await startFakeOpenAiServer();
    p = await startTestPlatform({ visibilityDelayMs: 0, openAiBaseUrl: upstream.baseUrl, openAiApiKey: 'sk-upstream', tools: mcp });
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

  /** A fresh app on the upstream model (its own usage rows). */
  async function upstreamWorld(settings: Record<string, unknown> = {}): Promise<ChatWorld> {
    const fresh = await chatWorld(p);
    await patchSettings(p, fresh.appId, { model: 'openai:test-model', ...settings });
    return fresh;
  }

  describe('response_format', () => {
    it('is passed natively: json_schema with its name, schema and strict; json_object; nothing for text', async () => {
      const valid = JSON.stringify({ answer: 'yes', score: 3 });
      upstream.reply(answer(valid));
      const res = await ok(w, { messages: [{ role: 'user', content: 'Verdict?' }], response_format: SIMPLE_FORMAT });
      expect(res.choices[0]!.message.content).toBe(valid);
      expect(upstream.requests).toHaveLength(1);
      expect(sent(0).response_format).toEqual({ type: 'json_schema', json_schema: { name: 'verdict', schema: SIMPLE_SCHEMA, strict: true } });

      upstream.reply(answer(valid));
      await ok(w, {
        messages: [{ role: 'user', content: 'Verdict?' }],
        response_format: { type: 'json_schema', json_schema: { name: 'verdict', schema: SIMPLE_SCHEMA } },
      });
      expect(sent(1).response_format).toEqual({ type: 'json_schema', json_schema: { name: 'verdict', schema: SIMPLE_SCHEMA, strict: false } });

      upstream.reply(answer('{"any":1}'));
      await ok(w, { messages: [{ role: 'user', content: 'Object?' }], response_format: { type: 'json_object' } });
      expect(sent(2).response_format).toEqual({ type: 'json_object' });

      upstream.reply(answer('plain'), answer('plain'));
      await ok(w, { messages: [{ role: 'user', content: 'Text?' }], response_format: { type: 'text' } });
      await ok(w, { messages: [{ role: 'user', content: 'Text?' }] });
      expect(sent(3)).not.toHaveProperty('response_format');
      expect(sent(4)).not.toHaveProperty('response_format');
    });

    it('repairs an invalid answer once: the upstream is told the problems, the client gets the valid answer', async () => {
      const fresh = await upstreamWorld();
      const invalid = JSON.stringify({ answer: 7, score: -1 });
      const valid = JSON.stringify({ answer: 'fixed', score: 2 });
      upstream.reply(answer(invalid, {}, { prompt_tokens: 11, completion_tokens: 4 }), answer(valid, {}, { prompt_tokens: 20, completion_tokens: 5 }));
      const res = await ok(fresh, { messages: [{ role: 'user', content: 'Verdict?' }], response_format: SIMPLE_FORMAT });
      expect(res.choices[0]!.message.content).toBe(valid);
      expect(res.choices[0]!.finish_reason).toBe('stop');
      expect(res.usage).toEqual({
        prompt_tokens: 31,
        completion_tokens: 9,
        total_tokens: 40,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      });

      expect(upstream.requests).toHaveLength(2);
      const repair = sent(1);
      expect(repair.messages.slice(0, -2)).toEqual(sent(0).messages);
      expect(repair.messages.at(-2)).toEqual({ role: 'assistant', content: invalid });
      const ask = repair.messages.at(-1);
      expect(ask.role).toBe('user');
      const lines = (ask.content as string).split('\n');
      expect(lines[0]).toBe('Your previous answer did not match the required format:');
      expect(lines.at(-1)).toBe('Answer again with only the corrected JSON.');
      const problems = lines.slice(1, -1);
      expect(problems.length).toBeGreaterThanOrEqual(2);
      expect(problems.every((l) => l.startsWith('- #'))).toBe(true);
      expect(problems.some((l) => l.startsWith('- #/answer: '))).toBe(true);
      expect(problems.some((l) => l.startsWith('- #/score: '))).toBe(true);
      expect(repair.response_format).toEqual(sent(0).response_format);
      expect(repair).not.toHaveProperty('tools');

      // Stored: the valid answer only; billed: both calls.
      expect((await transcript(fresh, res.chatSessionId)).map((m) => m.content)).toEqual(['Verdict?', valid]);
      expect((await usageRows(fresh)).map((r) => r.input_tokens).sort((a, b) => a - b)).toEqual([11, 20]);
    });

    it('repairs a streamed turn without streaming upstream, and streams the valid answer as one delta', async () => {
      const valid = JSON.stringify({ answer: 'ok', score: 1 });
      upstream.reply(answer('Sure! Here you go: {"answer":"ok"}'), answer(valid));
      const s = await streamed(w, { messages: [{ role: 'user', content: 'Verdict?' }], response_format: SIMPLE_FORMAT });
      expect(s.contents).toEqual([valid]);
      expect(upstream.requests).toHaveLength(2);
      expect(sent(0)).not.toHaveProperty('stream');
      expect(sent(1).messages.at(-1).content).toContain('- the answer is not JSON');
    });

    it('fails with a 500 after a second invalid answer, and both calls appear in the usage export', async () => {
      const fresh = await upstreamWorld();
      upstream.reply(answer('[1,2]', {}, { prompt_tokens: 11, completion_tokens: 4 }), answer('still [3]', {}, { prompt_tokens: 13, completion_tokens: 6 }));
      const res = await send(fresh, { messages: [{ role: 'user', content: 'Object please' }], response_format: { type: 'json_object' } });
      expectChatError(res, 500);
      expect(res.body).toEqual({ error: `${REPAIR_PREFIX}the answer is not JSON` });
      expect(sent(1).messages.at(-1).content).toBe(
        'Your previous answer did not match the required format:\n- the answer is not a JSON object\nAnswer again with only the corrected JSON.',
      );
      const rows = await usageRows(fresh);
      expect(rows.map((r) => [r.model, r.input_tokens, r.output_tokens]).sort()).toEqual([
        ['test-model', 11, 4],
        ['test-model', 13, 6],
      ]);
      expect(new Set(rows.map((r) => r.session_id)).size).toBe(1);
      expect(rows.every((r) => r.app_id === fresh.appId)).toBe(true);

      // With a schema, the message names the schema's problems.
      upstream.reply(answer('{"answer":"x"}'), answer('{"score":1}'));
      const schemaFail = await send(fresh, { messages: [{ role: 'user', content: 'Verdict?' }], response_format: SIMPLE_FORMAT });
      expectChatError(schemaFail, 500);
      expect(schemaFail.body.error).toMatch(/^The model's answer did not match response_format after one repair attempt: #: .*answer/);
    });

    it('refuses a schema it could not apply with a 400 before any model call', async () => {
      const fresh = await upstreamWorld();
      const before = upstream.requests.length;
      const bad = await send(fresh, {
        messages: [{ role: 'user', content: 'Verdict?' }],
        response_format: { type: 'json_schema', json_schema: { name: 'v', schema: { type: 'object', properties: { a: { type: 'string', pattern: '([' } } } } },
      });
      expectChatError(bad, 400);
      expect(bad.body).toEqual({ error: 'response_format.json_schema.schema: #.properties.a: the pattern "([" is no regular expression' });
      const tool = await send(fresh, {
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'banana' } } }],
      });
      expectChatError(tool, 400);
      expect(tool.body).toEqual({ error: 'tools[0].function.parameters: #.type: "banana" is no JSON type' });
      expect(upstream.requests.length).toBe(before);
    });

    it('returns an answer in a ```json fence without the fence, and stores it so', async () => {
      const json = '{\n  "answer": "fenced",\n  "score": 5\n}';
      upstream.reply(answer(`\`\`\`json\n${json}\n\`\`\``));
      const res = await ok(w, { messages: [{ role: 'user', content: 'Verdict?' }], response_format: SIMPLE_FORMAT });
      expect(res.choices[0]!.message.content).toBe(json);
      expect(upstream.requests).toHaveLength(1);
      expect((await transcript(w, res.chatSessionId))[1]!.content).toBe(json);
      // A plain fence, streamed.
      upstream.reply(answer('```\n{"reply":1}\n```'));
      const s = await streamed(w, { messages: [{ role: 'user', content: 'Object?' }], response_format: { type: 'json_object' } });
      expect(s.contents).toEqual(['{"reply":1}']);
    });
  });

  describe('tools, tool_choice and parallel_tool_calls upstream', () => {
    // A tool without a description is sent without one.
    const wireTool = (name: string, description: string, parameters: unknown) => ({
      type: 'function',
      function: { name, ...(description ? { description } : {}), parameters },
    });

    it('sends the client tools in OpenAI’s shape, with tool_choice and parallel_tool_calls only when they say something', async () => {
      const cases: [Record<string, unknown>, Record<string, unknown>][] = [
        [{}, {}],
        [{ tool_choice: 'auto', parallel_tool_calls: true }, {}],
        [{ tool_choice: 'required' }, { tool_choice: 'required' }],
        [{ tool_choice: { type: 'function', function: { name: 'get_time' } } }, { tool_choice: { type: 'function', function: { name: 'get_time' } } }],
        [{ parallel_tool_calls: false }, { parallel_tool_calls: false }],
        [
          { tool_choice: 'required', parallel_tool_calls: false },
          { tool_choice: 'required', parallel_tool_calls: false },
        ],
      ];
      for (const [i, [fields, expected]] of cases.entries()) {
        upstream.reply(answer('no call'));
        await ok(w, { messages: [{ role: 'user', content: 'hi' }], tools: [WEATHER, TIME], ...fields });
        const body = sent(i);
        expect(body.tools).toEqual([
          wireTool('get_weather', 'The weather of a city', WEATHER_PARAMETERS),
          wireTool('get_time', '', { type: 'object', properties: {} }),
        ]);
        expect({ tool_choice: body.tool_choice, parallel_tool_calls: body.parallel_tool_calls }).toEqual({
          tool_choice: expected.tool_choice,
          parallel_tool_calls: expected.parallel_tool_calls,
        });
      }
    });

    it('sends no client tools with tool_choice "none"', async () => {
      upstream.reply(answer('no call'));
      await ok(w, { messages: [{ role: 'user', content: 'hi' }], tools: [WEATHER], tool_choice: 'none' });
      expect(sent(0)).not.toHaveProperty('tools');
      expect(sent(0)).not.toHaveProperty('tool_choice');
    });

    it('hands an upstream call of a client tool back, then sends the result upstream in the continued session', async () => {
      upstream.reply(answer(null, { tool_calls: [upCall('call_up_7', 'get_weather', '{"city":"Rome"}')] }, { prompt_tokens: 15, completion_tokens: 3 }));
      const first = await ok(w, { messages: [{ role: 'user', content: 'Weather in Rome?' }], tools: [WEATHER] });
      expect(first.choices[0]!.finish_reason).toBe('tool_calls');
      expect(first.choices[0]!.message.tool_calls).toEqual([upCall('call_up_7', 'get_weather', '{"city":"Rome"}')]);
      expect(first.usage).toEqual({
        prompt_tokens: 15,
        completion_tokens: 3,
        total_tokens: 18,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      });
      expect(upstream.requests).toHaveLength(1);

      upstream.reply(answer('It is 25 C in Rome.'));
      const second = await ok(w, {
        chatSessionId: first.chatSessionId,
        tools: [WEATHER],
        messages: [
          { role: 'user', content: 'Weather in Rome?' },
          { role: 'assistant', content: null, tool_calls: first.choices[0]!.message.tool_calls },
          { role: 'tool', tool_call_id: 'call_up_7', content: '25 C' },
        ],
      });
      expect(second.choices[0]).toEqual({ index: 0, message: { role: 'assistant', content: 'It is 25 C in Rome.' }, finish_reason: 'stop' });
      expect(sent(1).messages).toEqual([
        { role: 'user', content: 'Weather in Rome?' },
        { role: 'assistant', content: null, tool_calls: [upCall('call_up_7', 'get_weather', '{"city":"Rome"}')] },
        { role: 'tool', tool_call_id: 'call_up_7', content: '25 C' },
      ]);
    });

    it('tells the upstream a pending call got no result when the client goes on without it', async () => {
      upstream.reply(answer(null, { tool_calls: [upCall('call_up_8', 'get_weather', '{"city":"Nice"}')] }));
      const first = await ok(w, { messages: [{ role: 'user', content: 'Weather in Nice?' }], tools: [WEATHER] });
      upstream.reply(answer('Okay.'));
      await ok(w, { chatSessionId: first.chatSessionId, messages: [{ role: 'user', content: 'Forget it.' }] });
      expect(sent(1).messages).toEqual([
        { role: 'user', content: 'Weather in Nice?' },
        { role: 'assistant', content: null, tool_calls: [upCall('call_up_8', 'get_weather', '{"city":"Nice"}')] },
        { role: 'tool', tool_call_id: 'call_up_8', content: NO_CLIENT_RESULT },
        { role: 'user', content: 'Forget it.' },
      ]);
    });

    it('keeps only the first call with parallel_tool_calls false, and every call otherwise', async () => {
      const two = [upCall('call_a', 'get_weather', '{"city":"Oslo"}'), upCall('call_b', 'get_time', '{}')];
      upstream.reply(answer(null, { tool_calls: two }), answer(null, { tool_calls: two }));
      const one = await ok(w, { messages: [{ role: 'user', content: 'both' }], tools: [WEATHER, TIME], parallel_tool_calls: false });
      expect(one.choices[0]!.message.tool_calls).toEqual([two[0]]);
      const both = await ok(w, { messages: [{ role: 'user', content: 'both' }], tools: [WEATHER, TIME] });
      expect(both.choices[0]!.message.tool_calls).toEqual(two);
      expect((await transcript(w, one.chatSessionId))[1]!.tools).toEqual([{ id: 'call_a', name: 'get_weather', type: 'function' }]);
    });

    it('streams upstream tool calls back in OpenAI’s delta shape, one index per call', async () => {
      upstream.reply({
        kind: 'sse',
        events: [
          chunk({ role: 'assistant', content: null }),
          chunk({ tool_calls: [{ index: 0, id: 'call_s1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Bern"}' } }] }),
          chunk({ tool_calls: [{ index: 1, id: 'call_s2', type: 'function', function: { name: 'get_time', arguments: '{}' } }] }),
          chunk({}, 'tool_calls'),
          { ...chunk({}), choices: [], usage: { prompt_tokens: 9, completion_tokens: 7 } },
        ],
      });
      const s = await streamed(w, { messages: [{ role: 'user', content: 'Bern?' }], tools: [WEATHER, TIME] });
      expect(sent(0).stream).toBe(true);
      expect(s.choices).toEqual([
        { index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null },
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, id: 'call_s1', type: 'function', function: { name: 'get_weather', arguments: '' } }] },
          finish_reason: null,
        },
        { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":"Bern"}' } }] }, finish_reason: null },
        {
          index: 0,
          delta: { tool_calls: [{ index: 1, id: 'call_s2', type: 'function', function: { name: 'get_time', arguments: '' } }] },
          finish_reason: null,
        },
        { index: 0, delta: { tool_calls: [{ index: 1, function: { arguments: '{}' } }] }, finish_reason: null },
        { index: 0, delta: {}, finish_reason: 'tool_calls' },
      ]);
    });

    it('runs an MCP tool and hands a client tool back when the upstream calls both at once', async () => {
      const m = await upstreamWorld({ mcpConnections: TOOL_CONNECTION });
      const before = mcp.calls.length;
      upstream.reply(answer(null, { tool_calls: [upCall('call_m', 'lookup_order', '{"orderId":"5"}'), upCall('call_c', 'get_weather', '{"city":"Graz"}')] }));
      const res = await ok(m, { messages: [{ role: 'user', content: 'Order 5 and the weather in Graz' }], tools: [WEATHER] });
      expect(res.choices[0]!.finish_reason).toBe('tool_calls');
      expect(res.choices[0]!.message.tool_calls).toEqual([upCall('call_c', 'get_weather', '{"city":"Graz"}')]);
      expect(mcp.calls.slice(before)).toEqual([expect.objectContaining({ name: 'lookup_order', input: { orderId: '5' } })]);
      expect(upstream.requests).toHaveLength(1);
      expect((await transcript(m, res.chatSessionId))[1]!.tools).toEqual([
        { id: 'call_m', name: 'lookup_order', type: 'tool', success: true },
        { id: 'call_c', name: 'get_weather', type: 'function' },
      ]);
    });

    it('offers a client tool in place of the MCP tool of its name, and hands its call back', async () => {
      const m = await upstreamWorld({ mcpConnections: TOOL_CONNECTION });
      const before = mcp.calls.length;
      const mine = { type: 'function', function: { name: 'lookup_order', description: 'The client’s own lookup', parameters: { type: 'object' } } };
      upstream.reply(answer(null, { tool_calls: [upCall('call_x', 'lookup_order', '{"orderId":"1"}')] }));
      const res = await ok(m, { messages: [{ role: 'user', content: 'Order 1?' }], tools: [mine] });
      // The client's tools come first among the offered tools.
      expect(sent(0).tools.map((t: { function: { name: string; description: string } }) => [t.function.name, t.function.description])).toEqual([
        ['lookup_order', 'The client’s own lookup'],
        ['broken_tool', 'Always fails'],
      ]);
      expect(res.choices[0]!.message.tool_calls).toEqual([upCall('call_x', 'lookup_order', '{"orderId":"1"}')]);
      expect(mcp.calls.length).toBe(before);
    });

    // A handed-back call's `arguments` are the text the model wrote, even when it is no JSON object.
    it('hands back the arguments text exactly as the upstream wrote it', async () => {
      upstream.reply(answer(null, { tool_calls: [upCall('call_raw', 'get_weather', '{"city": "Ro')] }));
      const res = await ok(w, { messages: [{ role: 'user', content: 'Rome?' }], tools: [WEATHER] });
      expect(res.choices[0]!.finish_reason).toBe('tool_calls');
      expect(res.choices[0]!.message.tool_calls![0]!.function.arguments).toBe('{"city": "Ro');
    });

    // With response_format set, text the model writes beside its tool calls is no answer to check: a
    // stream sends it as a non-streamed client gets it.
    it('streams the text an upstream writes beside a client tool call when response_format is set', async () => {
      upstream.reply(answer('Let me check.', { tool_calls: [upCall('call_t', 'get_weather', '{"city":"Kyiv"}')] }));
      const s = await streamed(w, { messages: [{ role: 'user', content: 'Kyiv?' }], tools: [WEATHER], response_format: SIMPLE_FORMAT });
      expect(s.choices.at(-1)!.finish_reason).toBe('tool_calls');
      expect((await transcript(w, s.headers.get('x-chat-session-id')!))[1]!.content).toBe('Let me check.');
      expect(s.contents.join('')).toBe('Let me check.');
    });
  });
});
