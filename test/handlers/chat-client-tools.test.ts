/**
 * Client function tools on POST /api/v1/chat/completions, over HTTP against the local platform with the
 * offline model: tool calls handed back with finish_reason "tool_calls" (whole and streamed), results sent
 * back in a continued session, tool_choice and parallel_tool_calls, the tool-result rule, client tools
 * beside the app's MCP tools, the export's markers, and every malformed field a 400.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import OpenAI from 'openai';
import type { RunnableToolFunctionWithParse } from 'openai/lib/RunnableFunction';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESERVED_TOOL_NAMES, TOOL_NAME_PATTERN } from '../../functions/chat/domain/client-tools';
import { COMPLETIONS, ScriptedTools, chat, chatWorld, createChatKey, expectChatError, patchSettings, sseData, type ChatWorld } from '../support/chat';
import { openApiRequestMismatch } from '../support/openapi-check';
import { startTestPlatform, type TestPlatform, type TestResponse } from '../support/platform';

const ajv = new Ajv2020({ strict: false, allErrors: true });
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
(addFormats as unknown as (a: Ajv2020) => void)(ajv);

const WEATHER_PARAMETERS = {
  type: 'object',
  properties: { city: { type: 'string', minLength: 1 }, unit: { enum: ['C', 'F'] } },
  required: ['city'],
  additionalProperties: false,
};
const WEATHER = { type: 'function', function: { name: 'get_weather', description: 'The current weather of a city', parameters: WEATHER_PARAMETERS } };
const TIME = {
  type: 'function',
  function: { name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string', format: 'date' } }, required: ['zone'] } },
};
/** Never contacted: the scripted gateway stands in for the MCP peer. */
const TOOL_CONNECTION = [{ name: 'crm', url: 'http://127.0.0.1:9/mcp', headers: {} }];
const ASK_PARIS = 'use get_weather {"city":"Paris"}';
const PARIS_CALL_ID = 'call_offline_1_get_weather';

interface WireToolCall {
  id: string;
  type: string;
  function: { name: string; arguments: string };
}
interface Completion {
  chatSessionId: string;
  id: string;
  choices: { index: number; message: { role: string; content: string | null; tool_calls?: WireToolCall[] }; finish_reason: string }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}
interface ExportedMessage {
  id: string;
  role: string;
  content: string;
  created_at: string;
  tools?: Record<string, unknown>[];
}

function validArguments(parameters: Record<string, unknown>, text: string): unknown {
  const value: unknown = JSON.parse(text);
  const validate = ajv.compile(parameters);
  expect(validate(value), `${text}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  return value;
}

describe('client function tools on POST /api/v1/chat/completions', () => {
  const mcp = new ScriptedTools();
  let p: TestPlatform;
  let w: ChatWorld;
  beforeAll(async () => {
    p = await startTestPlatform({ tools: mcp, visibilityDelayMs: 0 });
    w = await chatWorld(p);
  });
  afterAll(() => p.stop());

  /**
   * A chat key that is never rate limited in a test: a fresh key of the app every 100 calls (a key takes
   * 120 requests a minute).
   */
  function keyPool(world: ChatWorld): () => Promise<string> {
    let key = world.chatKey;
    let used = 0;
    return async () => {
      if (++used > 100) {
        key = (await createChatKey(p, world.appId)).key;
        used = 1;
      }
      return key;
    };
  }
  const keys = new Map<string, () => Promise<string>>();
  const keyOf = (world: ChatWorld) => {
    if (!keys.has(world.appId)) keys.set(world.appId, keyPool(world));
    return keys.get(world.appId)!();
  };

  async function send(world: ChatWorld, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<TestResponse> {
    return chat(p, await keyOf(world), { model: world.appNameId, ...body }, headers);
  }

  async function ok(world: ChatWorld, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Completion & { headers: Headers }> {
    const res = await send(world, body, headers);
    expect(res.status, res.text).toBe(200);
    return { ...(res.body as Completion), headers: res.headers };
  }

  /** A streamed turn through fetch: the status, headers and parsed chunks (`[DONE]` checked and dropped). */
  async function streamed(world: ChatWorld, body: Record<string, unknown>, headers: Record<string, string> = {}) {
    const res = await fetch(`${p.baseUrl}${COMPLETIONS}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await keyOf(world)}`, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ model: world.appNameId, stream: true, ...body }),
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const data = sseData(text);
    expect(data.at(-1)).toBe('[DONE]');
    return { headers: res.headers, chunks: data.slice(0, -1).map((d) => JSON.parse(d)) };
  }

  async function transcript(world: ChatWorld, sessionId: string, include = ''): Promise<ExportedMessage[]> {
    const res = await p.call('GET', `/api/v1/org/sessions/${sessionId}/messages${include ? `?include=${include}` : ''}`, { token: world.orgKey });
    expect(res.status, res.text).toBe(200);
    return res.body.data.messages;
  }

  async function sessionIds(world: ChatWorld): Promise<string[]> {
    const res = await p.call('GET', '/api/v1/org/sessions', { token: world.orgKey });
    expect(res.status, res.text).toBe(200);
    return res.body.data.map((s: { id: string }) => s.id);
  }

  async function usageRows(world: ChatWorld): Promise<{ session_id: string }[]> {
    const res = await p.call('GET', '/api/v1/org/usage', { token: world.orgKey });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  }

  /** The assistant message of a first turn that calls get_weather for Paris, as the client sends it back. */
  const parisCall = (id = PARIS_CALL_ID) => ({
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
  });

  describe('a round trip: the call handed back, the result sent, the answer', () => {
    it('hands the call back with finish_reason tool_calls, then answers from the result in the continued session', async () => {
      const first = await ok(w, { messages: [{ role: 'user', content: ASK_PARIS }], tools: [WEATHER] });
      expect(first.headers.get('x-chat-session-id')).toBe(first.chatSessionId);
      expect(first.choices).toHaveLength(1);
      const choice = first.choices[0]!;
      expect(choice.finish_reason).toBe('tool_calls');
      expect(choice.index).toBe(0);
      expect(choice.message.role).toBe('assistant');
      // OpenAI sends null content beside tool calls; the platform sends an empty text (both read as "no text").
      expect(['', null]).toContain(choice.message.content);
      expect(choice.message.tool_calls).toEqual([{ id: PARIS_CALL_ID, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }]);
      expect(validArguments(WEATHER_PARAMETERS, choice.message.tool_calls![0]!.function.arguments)).toEqual({ city: 'Paris' });
      expect(first.usage.total_tokens).toBe(first.usage.prompt_tokens + first.usage.completion_tokens);

      const second = await ok(w, {
        chatSessionId: first.chatSessionId,
        tools: [WEATHER],
        messages: [
          { role: 'user', content: ASK_PARIS },
          { role: 'assistant', content: null, tool_calls: choice.message.tool_calls },
          { role: 'tool', tool_call_id: PARIS_CALL_ID, content: '{"temperature":21,"unit":"C"}' },
        ],
      });
      expect(second.chatSessionId).toBe(first.chatSessionId);
      expect(second.id).not.toBe(first.id);
      expect(second.choices).toEqual([
        { index: 0, message: { role: 'assistant', content: 'Tool result: {"temperature":21,"unit":"C"}' }, finish_reason: 'stop' },
      ]);
    });

    it('takes a result that names its tool (as LangChain sends it)', async () => {
      const res = await ok(w, {
        tools: [WEATHER],
        messages: [{ role: 'user', content: ASK_PARIS }, parisCall('call_n'), { role: 'tool', tool_call_id: 'call_n', name: 'get_weather', content: 'hail' }],
      });
      expect(res.choices[0]!.message.content).toBe('Tool result: hail');
    });

    it('takes the result alone (after the stored call) and with the session in the X-Chat-Session-ID header', async () => {
      const first = await ok(w, { messages: [{ role: 'user', content: ASK_PARIS }], tools: [WEATHER] });
      const second = await ok(
        w,
        {
          tools: [WEATHER],
          messages: [
            {
              role: 'tool',
              tool_call_id: PARIS_CALL_ID,
              content: [
                { type: 'text', text: 'sunny, ' },
                { type: 'text', text: '24 C' },
              ],
            },
          ],
        },
        { 'X-Chat-Session-ID': first.chatSessionId },
      );
      expect(second.chatSessionId).toBe(first.chatSessionId);
      expect(second.choices[0]!.message.content).toBe('Tool result: sunny, 24 C');
      expect(second.choices[0]!.finish_reason).toBe('stop');
    });

    it('answers from several results of one assistant message, in the order they come, in a new session', async () => {
      const res = await ok(w, {
        tools: [WEATHER, TIME],
        messages: [
          { role: 'user', content: 'Weather and time in Paris?' },
          {
            role: 'assistant',
            content: 'Let me check.',
            tool_calls: [
              { id: 'c_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
              { id: 'c_t', type: 'function', function: { name: 'get_time', arguments: '{"zone":"CET"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'c_t', content: '10:00' },
          { role: 'tool', tool_call_id: 'c_w', content: 'rain' },
        ],
      });
      expect(res.choices[0]!.message.content).toBe('Tool result: 10:00\nrain');
      expect(res.choices[0]!.finish_reason).toBe('stop');
    });

    it('streams the call in OpenAI’s delta shape with finish_reason tool_calls, then streams the answer', async () => {
      const first = await streamed(w, { messages: [{ role: 'user', content: ASK_PARIS }], tools: [WEATHER] });
      const sessionId = first.headers.get('x-chat-session-id')!;
      expect(sessionId).toBeTruthy();
      for (const c of first.chunks) {
        expect(c).toMatchObject({ object: 'chat.completion.chunk', id: first.chunks[0].id, chatSessionId: sessionId, model: w.appNameId });
        expect(c.choices).toHaveLength(1);
      }
      expect(first.chunks.map((c) => c.choices[0])).toEqual([
        { index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null },
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, id: PARIS_CALL_ID, type: 'function', function: { name: 'get_weather', arguments: '' } }] },
          finish_reason: null,
        },
        { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":"Paris"}' } }] }, finish_reason: null },
        { index: 0, delta: {}, finish_reason: 'tool_calls' },
      ]);

      const second = await streamed(w, {
        chatSessionId: sessionId,
        tools: [WEATHER],
        messages: [{ role: 'user', content: ASK_PARIS }, parisCall(), { role: 'tool', tool_call_id: PARIS_CALL_ID, content: 'sunny' }],
      });
      const deltas = second.chunks.map((c) => c.choices[0]);
      expect(deltas.some((d) => 'tool_calls' in d.delta)).toBe(false);
      expect(deltas.map((d) => d.delta.content ?? '').join('')).toBe('Tool result: sunny');
      expect(deltas.at(-1)).toEqual({ index: 0, delta: {}, finish_reason: 'stop' });
      expect(second.chunks.every((c) => c.chatSessionId === sessionId)).toBe(true);
    });

    it('in a Zero Data Retention app, reads the calls from the history the client resends, and stores none of it', async () => {
      const z = await chatWorld(p);
      await patchSettings(p, z.appId, { zeroDataRetention: true });
      const first = await ok(z, { messages: [{ role: 'user', content: ASK_PARIS }], tools: [WEATHER] });
      expect(first.choices[0]!.finish_reason).toBe('tool_calls');
      const history = [{ role: 'user', content: ASK_PARIS }, parisCall()];
      const second = await ok(z, { chatSessionId: first.chatSessionId, messages: [...history, { role: 'tool', tool_call_id: PARIS_CALL_ID, content: 'dry' }] });
      expect(second.choices[0]!.message.content).toBe('Tool result: dry');
      expectChatError(
        await send(z, { chatSessionId: first.chatSessionId, messages: [...history, { role: 'tool', tool_call_id: 'call_zz', content: 'dry' }] }),
        400,
        /^messages\[2\]: tool_call_id call_zz answers no tool call of the assistant message before it$/,
      );
      expect(await transcript(z, first.chatSessionId, 'tool_details')).toEqual([]);
      expect(await p.deps.sessions.listMessages(first.chatSessionId)).toEqual([]);
    });

    it('replays a streamed tool-call answer under its Idempotency-Key with the same chunks', async () => {
      const body = { messages: [{ role: 'user', content: ASK_PARIS }], tools: [WEATHER] };
      const key = `tools-${Date.now()}`;
      const first = await streamed(w, body, { 'Idempotency-Key': key });
      const replay = await streamed(w, body, { 'Idempotency-Key': key });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.chunks.map((c) => c.choices[0])).toEqual(first.chunks.map((c) => c.choices[0]));
    });

    it('works with the official openai package: a stream accumulated by the SDK, and its tool runner', async () => {
      const client = new OpenAI({ apiKey: await keyOf(w), baseURL: `${p.baseUrl}/api/v1`, maxRetries: 0 });
      const stream = client.chat.completions.stream({
        model: w.appNameId,
        messages: [{ role: 'user', content: ASK_PARIS }],
        tools: [WEATHER as OpenAI.Chat.Completions.ChatCompletionFunctionTool],
      });
      const done = await stream.finalChatCompletion();
      expect(done.choices[0]!.finish_reason).toBe('tool_calls');
      expect(done.choices[0]!.message.tool_calls).toEqual([
        expect.objectContaining({
          id: PARIS_CALL_ID,
          type: 'function',
          function: expect.objectContaining({ name: 'get_weather', arguments: '{"city":"Paris"}' }),
        }),
      ]);

      // The SDK's runner sends the whole history back (a new session each call) and runs the function itself.
      const seen: unknown[] = [];
      const weather: RunnableToolFunctionWithParse<{ city: string }> = {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'The current weather of a city',
          parameters: WEATHER_PARAMETERS as RunnableToolFunctionWithParse<{ city: string }>['function']['parameters'],
          parse: (text: string) => JSON.parse(text) as { city: string },
          function: (args: { city: string }) => {
            seen.push(args);
            return 'cloudy, 17 C';
          },
        },
      };
      const runner = client.chat.completions.runTools({ model: w.appNameId, messages: [{ role: 'user', content: ASK_PARIS }], tools: [weather] });
      expect(await runner.finalContent()).toBe('Tool result: cloudy, 17 C');
      expect(seen).toEqual([{ city: 'Paris' }]);
    });
  });

  describe('tool_choice and parallel_tool_calls', () => {
    it('"required" calls the first tool even when the message names none, with arguments built from its schema', async () => {
      const res = await ok(w, { messages: [{ role: 'user', content: 'Hello there' }], tools: [TIME, WEATHER], tool_choice: 'required' });
      expect(res.choices[0]!.finish_reason).toBe('tool_calls');
      const [call] = res.choices[0]!.message.tool_calls!;
      expect(call!.function.name).toBe('get_time');
      validArguments(TIME.function.parameters, call!.function.arguments);
    });

    it('a named tool is called whatever the message says', async () => {
      const res = await ok(w, {
        messages: [{ role: 'user', content: ASK_PARIS }],
        tools: [WEATHER, TIME],
        tool_choice: { type: 'function', function: { name: 'get_time' } },
      });
      expect(res.choices[0]!.finish_reason).toBe('tool_calls');
      expect(res.choices[0]!.message.tool_calls!.map((c) => c.function.name)).toEqual(['get_time']);
      validArguments(TIME.function.parameters, res.choices[0]!.message.tool_calls![0]!.function.arguments);
    });

    it('"none" makes no call even when the message says to use a tool; "auto" and no choice do', async () => {
      const none = await ok(w, { messages: [{ role: 'user', content: ASK_PARIS }], tools: [WEATHER], tool_choice: 'none' });
      expect(none.choices[0]).toEqual({ index: 0, message: { role: 'assistant', content: `Offline reply #1: ${ASK_PARIS}` }, finish_reason: 'stop' });
      for (const extra of [{ tool_choice: 'auto' }, {}]) {
        const auto = await ok(w, { messages: [{ role: 'user', content: ASK_PARIS }], tools: [WEATHER], ...extra });
        expect(auto.choices[0]!.finish_reason).toBe('tool_calls');
      }
      // "none" and "auto" need no tools.
      for (const tool_choice of ['none', 'auto']) await ok(w, { messages: [{ role: 'user', content: 'hi' }], tool_choice });
    });

    it('refuses a named tool that is not among tools, and "required" or a name without tools', async () => {
      const named = { type: 'function', function: { name: 'get_stock' } };
      expectChatError(
        await send(w, { messages: [{ role: 'user', content: 'hi' }], tools: [WEATHER], tool_choice: named }),
        400,
        /^tool_choice names get_stock, which is not among tools$/,
      );
      for (const tools of [undefined, [], null]) {
        expectChatError(
          await send(w, { messages: [{ role: 'user', content: 'hi' }], tools, tool_choice: 'required' }),
          400,
          /^tool_choice "required" needs tools$/,
        );
        expectChatError(
          await send(w, { messages: [{ role: 'user', content: 'hi' }], tools, tool_choice: named }),
          400,
          /^tool_choice names get_stock, which is not among tools$/,
        );
      }
    });

    it('builds the arguments from the schema when the message has no JSON object, or one the schema refuses', async () => {
      const parameters = {
        type: 'object',
        properties: {
          title: { type: 'string', minLength: 12, maxLength: 40 },
          when: { type: 'string', format: 'date-time' },
          attendees: { type: 'array', minItems: 2, items: { $ref: '#/$defs/person' } },
          priority: { type: 'integer', minimum: 3, maximum: 5 },
          kind: { enum: ['meeting', 'call'] },
          room: { anyOf: [{ type: 'null' }, { type: 'string', format: 'email' }] },
          online: { type: 'boolean' },
          version: { const: 2 },
        },
        required: ['title', 'when', 'attendees', 'priority'],
        additionalProperties: false,
        $defs: {
          person: { type: 'object', properties: { email: { type: 'string', format: 'email' }, age: { type: 'number', minimum: 18.5 } }, required: ['email'] },
        },
      };
      const schedule = { type: 'function', function: { name: 'schedule', parameters } };
      for (const content of ['please use schedule', 'use schedule {"title":"too short"}', 'use schedule {not json} and [1,2]']) {
        const res = await ok(w, { messages: [{ role: 'user', content }], tools: [schedule] });
        expect(res.choices[0]!.finish_reason).toBe('tool_calls');
        const args = validArguments(parameters, res.choices[0]!.message.tool_calls![0]!.function.arguments) as Record<string, unknown>;
        expect(args.title).not.toBe('too short');
      }
      // A valid object in the message is taken as it is.
      const given = { title: 'Quarterly review', when: '2026-05-01T09:00:00Z', attendees: [{ email: 'a@b.io' }, { email: 'c@d.io' }], priority: 4 };
      const res = await ok(w, { messages: [{ role: 'user', content: `use schedule ${JSON.stringify(given)} thanks` }], tools: [schedule] });
      expect(JSON.parse(res.choices[0]!.message.tool_calls![0]!.function.arguments)).toEqual(given);
    });

    it('gives a tool without parameters an empty object of arguments', async () => {
      const res = await ok(w, { messages: [{ role: 'user', content: 'call ping' }], tools: [{ type: 'function', function: { name: 'ping' } }] });
      expect(res.choices[0]!.message.tool_calls).toEqual([{ id: 'call_offline_1_ping', type: 'function', function: { name: 'ping', arguments: '{}' } }]);
    });

    it('accepts parallel_tool_calls false and true (at most one call a turn when false)', async () => {
      for (const parallel_tool_calls of [false, true]) {
        const res = await ok(w, { messages: [{ role: 'user', content: ASK_PARIS }], tools: [WEATHER, TIME], parallel_tool_calls });
        expect(res.choices[0]!.finish_reason).toBe('tool_calls');
        expect(res.choices[0]!.message.tool_calls).toHaveLength(1);
      }
      // Without tools it is accepted too.
      await ok(w, { messages: [{ role: 'user', content: 'hi' }], parallel_tool_calls: false });
    });
  });

  describe('a tool result must answer a tool call of the assistant message before it', () => {
    const noCall = (index: number, id: string) =>
      new RegExp(`^messages\\[${index}\\]: tool_call_id ${id} answers no tool call of the assistant message before it$`);

    it('refuses, in a new session, a result that answers nothing, and writes nothing', async () => {
      const fresh = await chatWorld(p);
      const cases: [unknown[], number, string][] = [
        [[{ role: 'tool', tool_call_id: 'call_x', content: 'r' }], 0, 'call_x'],
        [
          [
            { role: 'user', content: 'hi' },
            { role: 'tool', tool_call_id: 'call_x', content: 'r' },
          ],
          1,
          'call_x',
        ],
        [
          [
            { role: 'user', content: 'hi' },
            { role: 'assistant', content: 'Hello!' },
            { role: 'tool', tool_call_id: 'call_x', content: 'r' },
          ],
          2,
          'call_x',
        ],
        [[{ role: 'user', content: ASK_PARIS }, parisCall('call_a'), { role: 'tool', tool_call_id: 'call_b', content: 'r' }], 2, 'call_b'],
        // Answered twice.
        [
          [
            { role: 'user', content: ASK_PARIS },
            parisCall('call_a'),
            { role: 'tool', tool_call_id: 'call_a', content: 'r' },
            { role: 'tool', tool_call_id: 'call_a', content: 'again' },
          ],
          3,
          'call_a',
        ],
        // A user message in between closes the calls.
        [
          [
            { role: 'user', content: ASK_PARIS },
            parisCall('call_a'),
            { role: 'user', content: 'and?' },
            { role: 'tool', tool_call_id: 'call_a', content: 'r' },
          ],
          3,
          'call_a',
        ],
        // A system message too.
        [
          [
            { role: 'user', content: ASK_PARIS },
            parisCall('call_a'),
            { role: 'system', content: 'Be brief.' },
            { role: 'tool', tool_call_id: 'call_a', content: 'r' },
          ],
          3,
          'call_a',
        ],
        // The calls of an older assistant message.
        [
          [
            { role: 'user', content: ASK_PARIS },
            parisCall('call_a'),
            { role: 'tool', tool_call_id: 'call_a', content: 'r' },
            { role: 'assistant', content: 'Anything else?' },
            { role: 'tool', tool_call_id: 'call_a', content: 'r' },
          ],
          4,
          'call_a',
        ],
      ];
      for (const [messages, index, id] of cases) {
        for (const stream of [false, true]) {
          const res = await send(fresh, { messages, tools: [WEATHER], stream });
          expectChatError(res, 400, noCall(index, id));
          expect(res.headers.get('x-chat-session-id')).toBeNull();
        }
      }
      expect(await sessionIds(fresh)).toEqual([]);
      expect(await usageRows(fresh)).toEqual([]);
    });

    it('refuses, in a continued session, a result for a call the stored assistant message did not make; the session is unchanged', async () => {
      const fresh = await chatWorld(p);
      const first = await ok(fresh, { messages: [{ role: 'user', content: ASK_PARIS }], tools: [WEATHER] });
      const before = await transcript(fresh, first.chatSessionId, 'tool_details');
      expect(before.map((m) => m.role)).toEqual(['user', 'assistant']);
      const rowsBefore = await usageRows(fresh);

      // The client resends a history whose assistant message had other ids: the stored one is the truth.
      const resent = [{ role: 'user', content: ASK_PARIS }, parisCall('call_other'), { role: 'tool', tool_call_id: 'call_other', content: 'r' }];
      expectChatError(await send(fresh, { chatSessionId: first.chatSessionId, messages: resent, tools: [WEATHER] }), 400, noCall(2, 'call_other'));
      // Only the result, by header.
      expectChatError(
        await send(
          fresh,
          { messages: [{ role: 'tool', tool_call_id: 'call_other', content: 'r' }], tools: [WEATHER] },
          { 'X-Chat-Session-ID': first.chatSessionId },
        ),
        400,
        noCall(0, 'call_other'),
      );
      // A stored call answered twice in one request.
      expectChatError(
        await send(fresh, {
          chatSessionId: first.chatSessionId,
          messages: [
            { role: 'tool', tool_call_id: PARIS_CALL_ID, content: 'r' },
            { role: 'tool', tool_call_id: PARIS_CALL_ID, content: 'r' },
          ],
        }),
        400,
        noCall(1, PARIS_CALL_ID),
      );

      expect(await transcript(fresh, first.chatSessionId, 'tool_details')).toEqual(before);
      expect(await usageRows(fresh)).toEqual(rowsBefore);
      // Nothing holds the session: the right result goes through.
      const done = await ok(fresh, { chatSessionId: first.chatSessionId, messages: [{ role: 'tool', tool_call_id: PARIS_CALL_ID, content: 'fine' }] });
      expect(done.choices[0]!.message.content).toBe('Tool result: fine');

      // Once the call is answered, another result for it answers nothing.
      expectChatError(
        await send(fresh, { chatSessionId: first.chatSessionId, messages: [{ role: 'tool', tool_call_id: PARIS_CALL_ID, content: 'late' }] }),
        400,
        noCall(0, PARIS_CALL_ID),
      );
    });

    it('lets a client ignore a pending call: a plain user message goes on (the platform closes the call)', async () => {
      const first = await ok(w, { messages: [{ role: 'user', content: ASK_PARIS }], tools: [WEATHER] });
      const next = await ok(w, { chatSessionId: first.chatSessionId, messages: [{ role: 'user', content: 'Never mind. Hello!' }] });
      expect(next.choices[0]).toEqual({ index: 0, message: { role: 'assistant', content: 'Offline reply #2: Never mind. Hello!' }, finish_reason: 'stop' });
      // The same with the client's whole history, the pending call in it.
      const third = await ok(w, {
        chatSessionId: first.chatSessionId,
        messages: [
          { role: 'user', content: ASK_PARIS },
          parisCall(),
          { role: 'user', content: 'Never mind. Hello!' },
          { role: 'assistant', content: 'Offline reply #2: Never mind. Hello!' },
          { role: 'user', content: 'Still there?' },
        ],
      });
      expect(third.choices[0]!.message.content).toBe('Offline reply #3: Still there?');
      // A new session whose history holds an unanswered call goes on too.
      const fresh = await ok(w, { messages: [{ role: 'user', content: ASK_PARIS }, parisCall('call_q'), { role: 'user', content: 'Forget it' }] });
      expect(fresh.choices[0]!.message.content).toBe('Offline reply #2: Forget it');
    });

    it('answers the results given when only some calls of a message are answered', async () => {
      const res = await ok(w, {
        messages: [
          { role: 'user', content: 'two calls' },
          {
            role: 'assistant',
            content: '',
            tool_calls: [
              { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
              { id: 'c2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'c2', content: 'warm' },
        ],
      });
      expect(res.choices[0]!.finish_reason).toBe('stop');
      expect(res.choices[0]!.message.content).toContain('warm');
    });
  });

  describe('client tools beside the app’s MCP tools', () => {
    let m: ChatWorld;
    beforeAll(async () => {
      m = await chatWorld(p);
      await patchSettings(p, m.appId, { mcpConnections: TOOL_CONNECTION });
    });

    it('runs an MCP tool on the platform and hands a client tool back, in the same request shape', async () => {
      const calls = mcp.calls.length;
      const ran = await ok(m, { messages: [{ role: 'user', content: 'use lookup_order {"orderId":"42"}' }], tools: [WEATHER] });
      expect(ran.choices[0]).toEqual({ index: 0, message: { role: 'assistant', content: 'Tool result: Order 42: shipped' }, finish_reason: 'stop' });
      expect(mcp.calls.slice(calls)).toEqual([expect.objectContaining({ connection: 'crm', name: 'lookup_order', input: { orderId: '42' } })]);

      const handed = await ok(m, { messages: [{ role: 'user', content: 'use get_weather {"city":"Oslo"}' }], tools: [WEATHER] });
      expect(handed.choices[0]!.finish_reason).toBe('tool_calls');
      expect(handed.choices[0]!.message.tool_calls).toEqual([
        { id: 'call_offline_1_get_weather', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
      ]);
      expect(mcp.calls.length).toBe(calls + 1);

      const exported = await transcript(m, ran.chatSessionId, 'tool_details');
      expect(exported[1]!.tools).toEqual([{ id: 'call_offline_1_lookup_order', name: 'lookup_order', type: 'tool', success: true }]);
      expect((await transcript(m, handed.chatSessionId, 'tool_details'))[1]!.tools).toEqual([
        { id: 'call_offline_1_get_weather', name: 'get_weather', type: 'function' },
      ]);
    });

    it('hands back a client tool that has the name of an MCP tool (the client’s wins)', async () => {
      const calls = mcp.calls.length;
      const mine = { type: 'function', function: { name: 'lookup_order', parameters: { type: 'object', properties: { orderId: { type: 'string' } } } } };
      const res = await ok(m, { messages: [{ role: 'user', content: 'use lookup_order {"orderId":"7"}' }], tools: [mine] });
      expect(res.choices[0]!.finish_reason).toBe('tool_calls');
      expect(res.choices[0]!.message.tool_calls).toEqual([
        { id: 'call_offline_1_lookup_order', type: 'function', function: { name: 'lookup_order', arguments: '{"orderId":"7"}' } },
      ]);
      expect(mcp.calls.length).toBe(calls);
      // Its result comes from the client; the MCP tool is still not run.
      const next = await ok(m, {
        chatSessionId: res.chatSessionId,
        tools: [mine],
        messages: [{ role: 'tool', tool_call_id: 'call_offline_1_lookup_order', content: 'mine: delivered' }],
      });
      expect(next.choices[0]!.message.content).toBe('Tool result: mine: delivered');
      expect(mcp.calls.length).toBe(calls);
    });

    it('still runs the MCP tools with tool_choice "none" (it hides only the client’s tools)', async () => {
      const calls = mcp.calls.length;
      const res = await ok(m, { messages: [{ role: 'user', content: 'use lookup_order {"orderId":"9"}' }], tools: [WEATHER], tool_choice: 'none' });
      expect(res.choices[0]!.message.content).toBe('Tool result: Order 9: shipped');
      expect(mcp.calls.length).toBe(calls + 1);
    });

    it('meets "required" with the client’s first tool, which comes before the app’s MCP tools: its call is handed back', async () => {
      const calls = mcp.calls.length;
      const res = await ok(m, { messages: [{ role: 'user', content: 'Hello' }], tools: [WEATHER], tool_choice: 'required' });
      expect(res.choices[0]!.finish_reason).toBe('tool_calls');
      expect(res.choices[0]!.message.tool_calls).toEqual([
        expect.objectContaining({ type: 'function', function: expect.objectContaining({ name: 'get_weather' }) }),
      ]);
      expect(mcp.calls.length).toBe(calls);
    });

    it('refuses a client tool named like a platform document tool', async () => {
      for (const name of RESERVED_TOOL_NAMES) {
        expectChatError(
          await send(m, { messages: [{ role: 'user', content: `use ${name}` }], tools: [WEATHER, { type: 'function', function: { name } }] }),
          400,
          new RegExp(`^tools\\[1\\]\\.function\\.name: ${name} is the platform's own document tool$`),
        );
      }
    });
  });

  describe('the Org Export', () => {
    it('shows the call, the result and the answer in order, with function markers only with include=tool_details', async () => {
      const fresh = await chatWorld(p);
      const first = await ok(fresh, { messages: [{ role: 'user', content: ASK_PARIS }], tools: [WEATHER] });
      await ok(fresh, {
        chatSessionId: first.chatSessionId,
        tools: [WEATHER],
        messages: [{ role: 'user', content: ASK_PARIS }, parisCall(), { role: 'tool', tool_call_id: PARIS_CALL_ID, content: 'SECRET tool output 81' }],
      });

      const detailed = await transcript(fresh, first.chatSessionId, 'tool_details');
      expect(detailed.map(({ role, content, tools }) => ({ role, content, ...(tools ? { tools } : {}) }))).toEqual([
        { role: 'user', content: ASK_PARIS },
        { role: 'assistant', content: '', tools: [{ id: PARIS_CALL_ID, name: 'get_weather', type: 'function' }] },
        { role: 'tool', content: '', tools: [{ id: PARIS_CALL_ID, name: 'get_weather', type: 'function_result' }] },
        { role: 'assistant', content: 'Tool result: SECRET tool output 81' },
      ]);
      // Every message is a whole export message, in time order.
      for (const m of detailed) expect(Object.keys(m).sort()).toEqual(['content', 'created_at', 'id', 'role', ...(m.tools ? ['tools'] : [])].sort());
      expect(detailed.map((m) => m.created_at)).toEqual([...detailed.map((m) => m.created_at)].sort());

      const plain = await transcript(fresh, first.chatSessionId);
      expect(plain.map((m) => [m.role, m.content, 'tools' in m])).toEqual([
        ['user', ASK_PARIS, false],
        ['assistant', '', false],
        ['tool', '', false],
        ['assistant', 'Tool result: SECRET tool output 81', false],
      ]);
      // The arguments never appear in a marker.
      expect(JSON.stringify(detailed.slice(1, 3))).not.toContain('Paris');
    });

    it('names the call a result answers in a new session whose history carries it', async () => {
      const fresh = await chatWorld(p);
      const res = await ok(fresh, {
        tools: [WEATHER],
        messages: [{ role: 'user', content: ASK_PARIS }, parisCall('call_hist'), { role: 'tool', tool_call_id: 'call_hist', content: 'ok' }],
      });
      const detailed = await transcript(fresh, res.chatSessionId, 'tool_details');
      expect(detailed.map((m) => [m.role, m.tools])).toEqual([
        ['user', undefined],
        ['assistant', [{ id: 'call_hist', name: 'get_weather', type: 'function' }]],
        ['tool', [{ id: 'call_hist', name: 'get_weather', type: 'function_result' }]],
        ['assistant', undefined],
      ]);
    });
  });

  describe('the OpenAPI document and what the rules accept', () => {
    // A tool call may carry the `index` of the streamed delta it was built from (clients keep it):
    // accepted, and the document says so.
    it('documents a tool call with an `index`, which the platform accepts', async () => {
      const body = JSON.stringify({
        model: w.appNameId,
        messages: [
          { role: 'user', content: ASK_PARIS },
          { role: 'assistant', content: null, tool_calls: [{ index: 0, ...parisCall('call_i').tool_calls[0] }] },
          { role: 'tool', tool_call_id: 'call_i', content: 'ok' },
        ],
      });
      const res = await fetch(`${p.baseUrl}${COMPLETIONS}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${await keyOf(w)}`, 'Content-Type': 'application/json' },
        body,
      });
      expect(res.status, await res.text()).toBe(200);
      expect(openApiRequestMismatch('POST', COMPLETIONS, 200, { contentType: 'application/json', body }, res.headers)).toBeUndefined();
    });
  });

  describe('every malformed tools, tool_choice, response_format, tool_calls or tool message is a 400 with { error }', () => {
    const USER = [{ role: 'user', content: ASK_PARIS }];
    const jsonish = fc.jsonValue({ maxDepth: 2 });
    const notIn = (allowed: readonly string[]) => fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !allowed.includes(k));
    const nonRecord = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }));
    const nonString = fc.oneof(
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 2 }),
      fc.dictionary(fc.string(), fc.integer(), { maxKeys: 2 }),
    );
    const badName = fc.oneof(
      fc.string({ maxLength: 70 }).filter((s) => !TOOL_NAME_PATTERN.test(s)),
      fc.constantFrom(...RESERVED_TOOL_NAMES, 'x'.repeat(65), '', 'a b', 'a.b'),
      nonString,
    );
    const validTool = fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/).map((name) => ({ type: 'function', function: { name, parameters: { type: 'object' } } }));
    const fn = { name: 'bad_one', parameters: { type: 'object' } };

    /** Sends the body and checks the 400 (never a 500). */
    async function refused(world: ChatWorld, body: Record<string, unknown>): Promise<void> {
      const res = await send(world, body);
      expectChatError(res, 400);
      expect(res.headers.get('x-chat-session-id')).toBeNull();
    }

    let v: ChatWorld;
    beforeAll(async () => {
      v = await chatWorld(p);
    });

    it('tools', async () => {
      const badTool = fc.oneof(
        nonRecord,
        fc.record({ type: notIn(['function']), function: fc.constant(fn) }),
        fc.record({ type: fc.constant('function'), function: nonRecord }),
        fc.constant({ type: 'function' }),
        fc.constant({ function: fn }),
        fc.tuple(notIn(['type', 'function']), jsonish).map(([k, x]) => ({ type: 'function', function: fn, [k]: x })),
        fc.tuple(notIn(['name', 'description', 'parameters', 'strict']), jsonish).map(([k, x]) => ({ type: 'function', function: { ...fn, [k]: x } })),
        badName.map((name) => ({ type: 'function', function: { name } })),
        fc
          .oneof(
            nonString.filter((d) => d !== null),
            fc.constant(null),
            fc.constant('d'.repeat(16385)),
          )
          .map((description) => ({ type: 'function', function: { ...fn, description } })),
        fc
          .oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.jsonValue(), { maxLength: 2 }))
          .map((parameters) => ({ type: 'function', function: { ...fn, parameters } })),
        fc
          .oneof(fc.string(), fc.integer(), fc.dictionary(fc.string(), fc.integer(), { maxKeys: 1 }), fc.array(fc.boolean(), { maxLength: 1 }))
          .map((strict) => ({ type: 'function', function: { ...fn, strict } })),
      );
      const badTools = fc.oneof(
        fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.dictionary(fc.string(), jsonish, { maxKeys: 2 })),
        // Mostly one bad tool among good ones (unique names), at any place.
        {
          arbitrary: fc.tuple(fc.uniqueArray(validTool, { maxLength: 3, selector: (t) => t.function.name }), badTool, fc.nat()).map(([good, bad, at]) => {
            const tools: unknown[] = [...good];
            tools.splice(at % (good.length + 1), 0, bad);
            return tools;
          }),
          weight: 6,
        },
        validTool.map((t) => [t, WEATHER, t]),
        fc.constant(Array.from({ length: 129 }, (_, i) => ({ type: 'function', function: { name: `t${i}` } }))),
      );
      await fc.assert(
        fc.asyncProperty(badTools, fc.boolean(), async (tools, stream) => refused(v, { messages: USER, tools, stream })),
        { seed: 42, numRuns: 100 },
      );
    });

    it('tool_choice', async () => {
      const badChoice = fc.oneof(
        notIn(['none', 'auto', 'required']),
        fc.integer(),
        fc.boolean(),
        fc.array(fc.string(), { maxLength: 2 }),
        fc.constant({}),
        fc.record({ type: notIn(['function']), function: fc.constant({ name: 'get_weather' }) }),
        fc.record({ type: fc.constant('function'), function: nonRecord }),
        fc.record({ type: fc.constant('function'), function: fc.record({ name: nonString }) }),
        fc.record({ type: fc.constant('function'), function: fc.record({ name: notIn(['get_weather']) }) }),
        fc.tuple(notIn(['type', 'function']), jsonish).map(([k, x]) => ({ type: 'function', function: { name: 'get_weather' }, [k]: x })),
        fc.tuple(notIn(['name']), jsonish).map(([k, x]) => ({ type: 'function', function: { name: 'get_weather', [k]: x } })),
      );
      const withTools = badChoice.map((tool_choice) => ({ tools: [WEATHER], tool_choice }));
      const withoutTools = fc
        .tuple(fc.constantFrom(undefined, null, []), fc.constantFrom<unknown>('required', { type: 'function', function: { name: 'get_weather' } }))
        .map(([tools, tool_choice]) => ({ tools, tool_choice }));
      await fc.assert(
        fc.asyncProperty(fc.oneof(withTools, withoutTools), async (fields) => refused(v, { messages: USER, ...fields })),
        { seed: 42, numRuns: 100 },
      );
    });

    it('parallel_tool_calls', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(fc.string(), fc.integer(), fc.array(fc.boolean(), { maxLength: 1 }), fc.dictionary(fc.string(), fc.boolean(), { maxKeys: 1 })),
          async (parallel_tool_calls) => refused(v, { messages: USER, tools: [WEATHER], parallel_tool_calls }),
        ),
        { seed: 42, numRuns: 40 },
      );
    });

    it('response_format', async () => {
      const schema = { type: 'object' };
      const badFormat = fc.oneof(
        fc.string(),
        fc.integer(),
        fc.boolean(),
        fc.array(jsonish, { maxLength: 2 }),
        fc.constant({}),
        fc.record({ type: nonString }),
        fc.record({ type: notIn(['text', 'json_object', 'json_schema']) }),
        fc.tuple(fc.constantFrom('text', 'json_object'), notIn(['type']), jsonish).map(([type, k, x]) => ({ type, [k]: x })),
        fc.constant({ type: 'json_schema' }),
        fc.record({ type: fc.constant('json_schema'), json_schema: nonRecord }),
        fc.tuple(notIn(['type', 'json_schema']), jsonish).map(([k, x]) => ({ type: 'json_schema', json_schema: { name: 'answer', schema }, [k]: x })),
        badName.filter((n) => !RESERVED_TOOL_NAMES.includes(n as string)).map((name) => ({ type: 'json_schema', json_schema: { name, schema } })),
        fc.constant({ type: 'json_schema', json_schema: { schema } }),
        fc
          .tuple(notIn(['name', 'description', 'schema', 'strict']), jsonish)
          .map(([k, x]) => ({ type: 'json_schema', json_schema: { name: 'answer', schema, [k]: x } })),
        nonString.map((description) => ({ type: 'json_schema', json_schema: { name: 'answer', schema, description } })),
        fc
          .oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(jsonish, { maxLength: 2 }))
          .map((s) => ({ type: 'json_schema', json_schema: { name: 'answer', schema: s } })),
        fc
          .oneof(fc.string(), fc.integer(), fc.array(fc.boolean(), { maxLength: 1 }))
          .map((strict) => ({ type: 'json_schema', json_schema: { name: 'answer', schema, strict } })),
      );
      await fc.assert(
        fc.asyncProperty(badFormat, fc.boolean(), async (response_format, stream) =>
          refused(v, { messages: [{ role: 'user', content: 'hi' }], response_format, stream }),
        ),
        { seed: 42, numRuns: 100 },
      );
    });

    it('tool_calls of an assistant message', async () => {
      const goodCall = fc
        .stringMatching(/^call_[a-z0-9]{1,8}$/)
        .map((id) => ({ id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }));
      const call = { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } };
      const badCall = fc.oneof(
        nonRecord,
        fc.record({ id: fc.constant('c'), type: notIn(['function']), function: fc.constant(call.function) }),
        fc.record({ id: fc.constant('c'), type: fc.constant('function'), function: nonRecord }),
        fc.tuple(notIn(['id', 'type', 'function', 'index']), jsonish).map(([k, x]) => ({ ...call, [k]: x })),
        fc.tuple(notIn(['name', 'arguments']), jsonish).map(([k, x]) => ({ ...call, function: { ...call.function, [k]: x } })),
        fc.oneof(nonString, fc.constant(''), fc.constant('i'.repeat(257))).map((id) => ({ ...call, id })),
        fc.oneof(nonString, fc.constant('')).map((name) => ({ ...call, function: { ...call.function, name } })),
        fc
          .oneof(
            fc.integer(),
            fc.boolean(),
            fc.constant(null),
            fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
            fc.array(fc.integer(), { maxLength: 2 }),
          )
          .map((args) => ({
            ...call,
            function: { ...call.function, arguments: args },
          })),
      );
      const badCalls = fc.oneof(
        fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.dictionary(fc.string(), jsonish, { maxKeys: 2 })),
        // Mostly one bad call among good ones (unique names), at any place.
        {
          arbitrary: fc.tuple(fc.uniqueArray(goodCall, { maxLength: 3, selector: (t) => t.id }), badCall, fc.nat()).map(([good, bad, at]) => {
            const calls: unknown[] = [...good];
            calls.splice(at % (good.length + 1), 0, bad);
            return calls;
          }),
          weight: 6,
        },
        fc.constant(Array.from({ length: 129 }, (_, i) => ({ ...call, id: `c${i}` }))),
      );
      await fc.assert(
        fc.asyncProperty(badCalls, fc.constantFrom(null, '', 'Checking.'), fc.boolean(), async (tool_calls, content, continued) =>
          refused(v, {
            messages: [
              { role: 'user', content: ASK_PARIS },
              { role: 'assistant', content, tool_calls },
              { role: 'user', content: 'ok' },
            ],
            tools: [WEATHER],
            ...(continued ? { chatSessionId: await sessionOf(v) } : {}),
          }),
        ),
        { seed: 42, numRuns: 100 },
      );
    });

    it('tool messages: malformed, or answering no call', async () => {
      const opening = [{ role: 'user', content: ASK_PARIS }, parisCall('call_a')];
      const malformed = fc
        .oneof(
          fc.constant({ role: 'tool', content: 'r' }),
          fc.oneof(nonString, fc.constant(''), fc.constant('i'.repeat(257))).map((tool_call_id) => ({ role: 'tool', content: 'r', tool_call_id })),
          fc
            .tuple(notIn(['role', 'content', 'tool_call_id', 'name']), jsonish)
            .map(([k, x]) => ({ role: 'tool', content: 'r', tool_call_id: 'call_a', [k]: x })),
          // `name` (LangChain's) is taken, as a string of at most 64 characters.
          fc
            .oneof(
              nonString.filter((n) => n !== null),
              fc.constant('n'.repeat(65)),
            )
            .map((name) => ({ role: 'tool', content: 'r', tool_call_id: 'call_a', name })),
          fc
            .oneof(
              fc.integer(),
              fc.boolean(),
              fc.constant(null),
              fc.constant([]),
              fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
              fc.constant([{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }]),
            )
            .map((content) => ({ role: 'tool', content, tool_call_id: 'call_a' })),
        )
        .map((message) => ({ messages: [...opening, message], index: -1 }));
      // A result that answers nothing, at a known index: every earlier result is a good one.
      const unanswered = fc
        .tuple(fc.constantFrom('after-user', 'unknown-id', 'twice', 'after-text', 'first'), fc.stringMatching(/^call_[b-z][a-z0-9]{0,6}$/))
        .map(([kind, id]) => {
          const r = (tid: string) => ({ role: 'tool', content: 'r', tool_call_id: tid });
          switch (kind) {
            case 'after-user':
              return { messages: [...opening, r('call_a'), { role: 'user', content: 'and?' }, r('call_a')], index: 4, id: 'call_a' };
            case 'unknown-id':
              return { messages: [...opening, r(id)], index: 2, id };
            case 'twice':
              return { messages: [...opening, r('call_a'), r('call_a')], index: 3, id: 'call_a' };
            case 'after-text':
              return { messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'Hello' }, r(id)], index: 2, id };
            default:
              return { messages: [r(id), { role: 'user', content: 'hi' }], index: 0, id };
          }
        });
      await fc.assert(
        fc.asyncProperty(fc.oneof(malformed, unanswered), fc.boolean(), async (c, stream) => {
          const res = await send(v, { messages: c.messages, tools: [WEATHER], stream });
          expectChatError(res, 400);
          if ('id' in c) expect(res.body.error).toBe(`messages[${c.index}]: tool_call_id ${c.id} answers no tool call of the assistant message before it`);
        }),
        { seed: 42, numRuns: 100 },
      );
    });

    let continuedSession: string | undefined;
    /** One session of `world` to continue (created once). */
    async function sessionOf(world: ChatWorld): Promise<string> {
      continuedSession ??= (await ok(world, { messages: [{ role: 'user', content: 'hello' }] })).chatSessionId;
      return continuedSession;
    }

    it('wrote nothing for any of them', async () => {
      // Only the one session the tool_calls property continues.
      expect(await sessionIds(v)).toEqual(continuedSession ? [continuedSession] : []);
      if (continuedSession) expect((await transcript(v, continuedSession)).map((m) => m.role)).toEqual(['user', 'assistant']);
    });
  });
});
