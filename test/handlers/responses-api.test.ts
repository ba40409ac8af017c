/**
 * POST /api/v1/responses over HTTP: the Responses shape driven by the official `openai` package and by
 * the AI SDK's default OpenAI provider, against the offline model; the same sessions, usage and export
 * as chat completions; `previous_response_id` and `item_reference` reading stored answers.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, Output, stepCountIs, streamText, tool } from 'ai';
import OpenAI, { BadRequestError, NotFoundError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { chatWorld, patchSettings, type ChatWorld } from '../support/chat';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestPlatform, type TestPlatform } from '../support/platform';

const RESPONSES = '/api/v1/responses';

interface ExportedMessage {
  role: string;
  content: string;
  tools?: { id?: string; name?: string; type?: string }[];
}

describe('the Responses API', () => {
  let p: TestPlatform;
  let w: ChatWorld;
  let client: OpenAI;
  let upstream: FakeOpenAiServer;
  beforeAll(async () => {
    upstream = await startFakeOpenAiServer();
    p = await startTestPlatform({ visibilityDelayMs: 0, openAiBaseUrl: upstream.baseUrl });
    w = await chatWorld(p);
    client = new OpenAI({ apiKey: w.chatKey, baseURL: `${p.baseUrl}/api/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await p.stop();
    await upstream.close();
  });

  const exported = async (sessionId: string): Promise<ExportedMessage[]> => {
    const res = await p.call('GET', `/api/v1/org/sessions/${sessionId}/messages?include=tool_details`, { token: w.orgKey });
    expect(res.status, res.text).toBe(200);
    return res.body.data.messages;
  };
  const sessionOf = (r: unknown) => (r as { chatSessionId: string }).chatSessionId;
  const weather = {
    type: 'function' as const,
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
    strict: true,
  };

  it('answers a text input in the response shape, and the turn is in the export', async () => {
    const r = await client.responses.create({ model: w.appNameId, input: 'Hello there', instructions: 'Be brief.' });
    expect(r.object).toBe('response');
    expect(r.status).toBe('completed');
    expect(r.id).toMatch(/^resp_[0-9a-f]{64}$/);
    expect(r.output_text).toBe('Offline reply #1: Hello there');
    expect(r.output).toEqual([
      expect.objectContaining({ type: 'message', role: 'assistant', status: 'completed', content: [expect.objectContaining({ type: 'output_text' })] }),
    ]);
    expect(r.usage!.total_tokens).toBe(r.usage!.input_tokens + r.usage!.output_tokens);
    expect(r.instructions).toBe('Be brief.');
    // The instructions hold for this response only: they are not stored.
    expect((await exported(sessionOf(r))).map((m) => [m.role, m.content])).toEqual([
      ['user', 'Hello there'],
      ['assistant', 'Offline reply #1: Hello there'],
    ]);
  });

  it('continues the session with previous_response_id', async () => {
    const first = await client.responses.create({ model: w.appNameId, input: 'One' });
    const second = await client.responses.create({ model: w.appNameId, input: 'Two', previous_response_id: first.id });
    expect(second.output_text).toBe('Offline reply #2: Two');
    expect(sessionOf(second)).toBe(sessionOf(first));
    expect(second.previous_response_id).toBe(first.id);
    await expect(client.responses.create({ model: w.appNameId, input: 'x', previous_response_id: 'resp_nope' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('hands a function call back and takes its output, in order in the export', async () => {
    const first = await client.responses.create({ model: w.appNameId, input: 'use get_weather {"city":"Paris"}', tools: [weather] });
    const call = first.output.find((o) => o.type === 'function_call');
    expect(call).toMatchObject({ type: 'function_call', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' });
    const second = await client.responses.create({
      model: w.appNameId,
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: (call as { call_id: string }).call_id, output: 'Sunny, 21 °C' }],
      tools: [weather],
    });
    expect(second.output_text).toBe('Tool result: Sunny, 21 °C');
    const messages = await exported(sessionOf(second));
    expect(messages.map((m) => [m.role, m.content, m.tools?.map((t) => t.type)])).toEqual([
      ['user', 'use get_weather {"city":"Paris"}', undefined],
      ['assistant', '', ['function']],
      ['tool', '', ['function_result']],
      ['assistant', 'Tool result: Sunny, 21 °C', undefined],
    ]);
  });

  it('streams the semantic events, text deltas and function calls', async () => {
    const stream = client.responses.stream({ model: w.appNameId, input: 'Stream me please' });
    const types: string[] = [];
    let text = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    const final = await stream.finalResponse();
    expect(text).toBe('Offline reply #1: Stream me please');
    expect(final.output_text).toBe(text);
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(types).toEqual(
      expect.arrayContaining(['response.output_item.added', 'response.content_part.added', 'response.output_text.done', 'response.output_item.done']),
    );

    const calls = client.responses.stream({ model: w.appNameId, input: 'use get_weather', tools: [weather] });
    const argDeltas: string[] = [];
    for await (const event of calls) if (event.type === 'response.function_call_arguments.delta') argDeltas.push(event.delta);
    const done = await calls.finalResponse();
    const fc = done.output.find((o) => o.type === 'function_call') as { arguments: string };
    // No JSON in the message: arguments built from the schema.
    expect(JSON.parse(fc.arguments)).toEqual({ city: 'example' });
    expect(argDeltas.join('')).toBe(fc.arguments);
  });

  it('gives structured output for text.format json_schema', async () => {
    const r = await client.responses.create({
      model: w.appNameId,
      input: 'Give me a person',
      text: {
        format: {
          type: 'json_schema',
          name: 'person',
          strict: true,
          schema: {
            type: 'object',
            properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 18 } },
            required: ['name', 'age'],
            additionalProperties: false,
          },
        },
      },
    });
    expect(JSON.parse(r.output_text)).toEqual({ name: 'example', age: 18 });
  });

  it('refuses what it cannot do with area B errors', async () => {
    const bad = async (body: Record<string, unknown>) => {
      const res = await p.call('POST', RESPONSES, { token: w.chatKey, body: { model: w.appNameId, ...body } });
      return { status: res.status, body: res.body };
    };
    expect(await bad({ input: [] })).toEqual({ status: 400, body: { error: 'input must be a string or a non-empty array of items' } });
    expect(await bad({ input: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AA==', format: 'wav' } }] }] })).toEqual({
      status: 400,
      body: { error: 'input[0].content[0] must be a text part: files go in the input_image and input_file parts of a user, system or developer message' },
    });
    expect(await bad({ input: 'x', tools: [{ type: 'teleport' }] })).toEqual({
      status: 400,
      body: {
        error:
          'tools[0].type must be function, namespace, mcp, or a hosted tool (web_search, file_search, code_interpreter, image_generation, computer_use_preview, local_shell, shell, custom, apply_patch)',
      },
    });
    expect(await bad({ input: 'x', reasoning: { effort: 'extreme' } })).toEqual({
      status: 400,
      body: { error: 'reasoning.effort must be one of none, minimal, low, medium, high, xhigh, max' },
    });
    expect(await bad({ input: [{ type: 'item_reference', id: `msg_${'0'.repeat(64)}` }] })).toEqual({
      status: 400,
      body: { error: `input[0].id: no output item msg_${'0'.repeat(64)} of this app is stored (an app with Zero Data Retention keeps none)` },
    });
    expect(await bad({ input: [{ type: 'function_call_output', call_id: 'nope', output: 'x' }] })).toEqual({
      status: 400,
      body: { error: 'messages[0]: tool_call_id nope answers no tool call of the assistant message before it' },
    });
    const wrongModel = await p.call('POST', RESPONSES, { token: w.chatKey, body: { model: 'appname-0', input: 'x' } });
    expect(wrongModel.status).toBe(404);
    await expect(client.responses.create({ model: w.appNameId, input: 'x', include: ['everything' as never] })).rejects.toBeInstanceOf(BadRequestError);
  });

  it('reads an item_reference from a stored answer of the app', async () => {
    const first = await client.responses.create({ model: w.appNameId, input: 'Remember me' });
    const item = first.output[0] as { id: string };
    const r = await client.responses.create({
      model: w.appNameId,
      input: [
        { role: 'user', content: 'Remember me' },
        { type: 'item_reference', id: item.id },
        { role: 'user', content: 'And now?' },
      ],
    });
    expect(r.output_text).toBe('Offline reply #2: And now?');
    expect((await exported(sessionOf(r))).map((m) => m.content)).toEqual([
      'Remember me',
      'Offline reply #1: Remember me',
      'And now?',
      'Offline reply #2: And now?',
    ]);
  });

  describe("the AI SDK's default provider (openai(model) calls /responses)", () => {
    const provider = () => createOpenAI({ apiKey: w.chatKey, baseURL: `${p.baseUrl}/api/v1` });

    it('generateText, with a tool loop', async () => {
      const seen: unknown[] = [];
      const r = await generateText({
        model: provider()(w.appNameId),
        prompt: 'use get_weather {"city":"Oslo"}',
        tools: {
          get_weather: tool({
            description: 'The weather in a city',
            inputSchema: z.object({ city: z.string() }),
            execute: async (input) => {
              seen.push(input);
              return { forecast: 'snow' };
            },
          }),
        },
        stopWhen: stepCountIs(3),
      });
      expect(seen).toEqual([{ city: 'Oslo' }]);
      expect(r.text).toBe('Tool result: {"forecast":"snow"}');
      expect(r.steps).toHaveLength(2);
    });

    it('generateText with Output.object, and streamText', async () => {
      const r = await generateText({
        model: provider()(w.appNameId),
        prompt: 'A city, please',
        output: Output.object({ schema: z.object({ city: z.string(), population: z.number().int().min(1) }) }),
      });
      expect(r.output).toEqual({ city: 'example', population: 1 });

      const s = streamText({ model: provider()(w.appNameId), prompt: 'Stream this' });
      let text = '';
      for await (const delta of s.textStream) text += delta;
      expect(text).toBe('Offline reply #1: Stream this');
    });

    it('a multi-turn conversation whose earlier answer the SDK sends as an item_reference', async () => {
      const first = await generateText({ model: provider()(w.appNameId), prompt: 'First question' });
      const second = await generateText({
        model: provider()(w.appNameId),
        messages: [{ role: 'user', content: 'First question' }, ...first.response.messages, { role: 'user', content: 'Second question' }],
      });
      expect(second.text).toBe('Offline reply #2: Second question');
    });
  });

  it('drives an OpenAI-compatible upstream: the AI SDK default provider with a tool, and what the upstream received', async () => {
    const app = await chatWorld(p);
    await patchSettings(p, app.appId, { model: 'openai:test-model' });
    const reply = (message: Record<string, unknown>, finish: string) => ({
      kind: 'json' as const,
      body: {
        id: 'up',
        object: 'chat.completion',
        created: 1,
        model: 'test-model',
        choices: [{ index: 0, message, finish_reason: finish }],
        usage: { prompt_tokens: 9, completion_tokens: 3 },
      },
    });
    upstream.requests.length = 0;
    upstream.reply(
      reply(
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_up_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } }],
        },
        'tool_calls',
      ),
      reply({ role: 'assistant', content: 'Warm in Rome.' }, 'stop'),
    );
    const seen: unknown[] = [];
    const r = await generateText({
      model: createOpenAI({ apiKey: app.chatKey, baseURL: `${p.baseUrl}/api/v1` })(app.appNameId),
      system: 'Be brief.',
      prompt: 'Weather in Rome?',
      tools: {
        get_weather: tool({
          inputSchema: z.object({ city: z.string() }),
          execute: async (input) => {
            seen.push(input);
            return 'sunny, 24 °C';
          },
        }),
      },
      stopWhen: stepCountIs(3),
    });
    expect(r.text).toBe('Warm in Rome.');
    expect(seen).toEqual([{ city: 'Rome' }]);
    expect(upstream.requests).toHaveLength(2);
    const [first, second] = upstream.requests.map((q) => q.body);
    expect(first.model).toBe('test-model');
    expect(first.tools).toEqual([
      {
        type: 'function',
        function: { name: 'get_weather', parameters: expect.objectContaining({ type: 'object', properties: { city: { type: 'string' } } }) },
      },
    ]);
    expect(first.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Rome?' },
    ]);
    expect(second.messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_up_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_up_1', content: 'sunny, 24 °C' },
    ]);
  });

  it('replays a streamed response for a repeated Idempotency-Key, and ends a stream whose model fails with response.failed', async () => {
    const events = async (res: Response) =>
      (await res.text())
        .split('\n\n')
        .filter((e) => e.startsWith('event: '))
        .map(
          (e) =>
            JSON.parse(e.slice(e.indexOf('data: ') + 6)) as {
              type: string;
              sequence_number: number;
              delta?: string;
              response?: { id: string; status: string };
            },
        );
    const send = (key: string, body: Record<string, unknown>, token = w.chatKey) =>
      fetch(`${p.baseUrl}${RESPONSES}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify({ model: w.appNameId, stream: true, ...body }),
      });
    const first = await events(await send('resp-key-1', { input: 'Once only' }));
    const again = await send('resp-key-1', { input: 'Once only' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const replayed = await events(again);
    const text = (list: typeof first) => list.map((e) => e.delta ?? '').join('');
    expect(text(replayed)).toBe(text(first));
    expect(text(first)).toBe('Offline reply #1: Once only');
    expect(replayed.at(-1)!.response!.id).toBe(first.at(-1)!.response!.id);
    expect(replayed.map((e) => e.sequence_number)).toEqual(replayed.map((_, i) => i));

    // An app whose upstream answers 500 (nothing scripted): the failure comes after the first byte.
    const broken = await chatWorld(p);
    await patchSettings(p, broken.appId, { model: 'openai:test-model' });
    const failed = await events(
      await fetch(`${p.baseUrl}${RESPONSES}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${broken.chatKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ model: broken.appNameId, stream: true, input: 'Hello' }),
      }),
    );
    expect(failed.map((e) => e.type)).toEqual(['response.created', 'response.in_progress', 'response.failed']);
    expect(failed.at(-1)!.response!.status).toBe('failed');
  });

  it('bills a Responses turn like a chat turn: one usage row per model call', async () => {
    await patchSettings(p, w.appId, {});
    const r = await client.responses.create({ model: w.appNameId, input: 'Count me' });
    const usage = await p.call('GET', '/api/v1/org/usage', { token: w.orgKey });
    const rows = (usage.body.data as { session_id: string; input_tokens: number; output_tokens: number }[]).filter((u) => u.session_id === sessionOf(r));
    expect(rows).toEqual([expect.objectContaining({ input_tokens: r.usage!.input_tokens, output_tokens: r.usage!.output_tokens })]);
  });
});
