/**
 * Agent frameworks, unmodified, against the chat completions endpoint of the local platform: the AI SDK
 * (@ai-sdk/openai-compatible and @ai-sdk/openai's chat model), LangChain's ChatOpenAI and the openai
 * package drive client function tools (a call handed back, run by the client, its result sent as a
 * `tool` message) and structured output (`response_format`) through their own code paths.
 *
 * Against the offline model the answers follow its documented rules (offline-chat-model.ts): `use <tool>`
 * in the last user message calls that tool, with the first JSON object of the message as arguments when
 * it is valid against the tool's schema; after tool results it answers `Tool result: <results>`; a JSON
 * Schema answer is a value built from the schema. Against a loopback OpenAI-compatible upstream (an app
 * whose model is `openai:test-model`) the test asserts what the upstream received as well.
 *
 * The frameworks send no chatSessionId: every call is a new session holding the history it was sent.
 * Every exchange goes through a recording fetch, so a failure shows the raw request and response.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { AIMessage, type AIMessageChunk, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tool as langchainTool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { generateText, Output, stepCountIs, streamText, tool, type LanguageModel } from 'ai';
import OpenAI from 'openai';
import { zodFunction, zodResponseFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { chatWorld, patchSettings, type ChatWorld } from '../support/chat';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../support/fake-openai-server';
import { traced, Wire } from '../support/client-wire';
import { startTestPlatform, type TestPlatform } from '../support/platform';

const weatherInput = z.object({
  city: z.string().min(1).describe('City name'),
  unit: z.enum(['celsius', 'fahrenheit']).describe('Temperature unit'),
});
type WeatherInput = z.infer<typeof weatherInput>;
const weatherOf = (input: WeatherInput) => ({ city: input.city, temperature: input.unit === 'celsius' ? 21 : 70, unit: input.unit, sky: 'sunny' });
const WEATHER_DESCRIPTION = 'The current weather of a city';
/** The offline model's arguments when the prompt holds a JSON object valid against the schema. */
const PARIS = { city: 'Paris', unit: 'celsius' } as const;
const PARIS_PROMPT = `use get_weather for Paris ${JSON.stringify(PARIS)}`;
const PARIS_RESULT = JSON.stringify(weatherOf(PARIS));

const forecastSchema = z.object({
  city: z.string().min(2),
  days: z.array(z.object({ day: z.number().int().min(1).max(7), summary: z.string(), highC: z.number() })).min(1),
  confident: z.boolean(),
});

describe('agent frameworks against the platform', () => {
  let upstream: FakeOpenAiServer;
  let p: TestPlatform;
  /** An app on the offline model. */
  let w: ChatWorld;
  /** An app whose model is openai:test-model, served by the loopback upstream. */
  let u: ChatWorld;
  let apiBase: string;
  beforeAll(async () => {
    // The AI SDK's warning that @ai-sdk/openai-compatible sends no schema without supportsStructuredOutputs: expected below.
    (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
    upstream = await startFakeOpenAiServer();
    p = await startTestPlatform({ visibilityDelayMs: 0, openAiBaseUrl: upstream.baseUrl, openAiApiKey: 'sk-upstream' });
    apiBase = `${p.baseUrl}/api/v1`;
    w = await chatWorld(p);
    u = await chatWorld(p);
    await patchSettings(p, u.appId, { model: 'openai:test-model' });
  });
  afterAll(async () => {
    await p?.stop();
    await upstream?.close();
  });
  beforeEach(() => {
    upstream.requests.length = 0;
  });

  const exported = async (sessionId: string) => {
    const res = await p.call('GET', `/api/v1/org/sessions/${sessionId}/messages?include=tool_details`, { token: w.orgKey });
    expect(res.status, res.text).toBe(200);
    return res.body.data.messages as { role: string; content: string; tools?: unknown[] }[];
  };

  describe('the AI SDK', () => {
    const compatible = (wire: Wire, world: ChatWorld = w, settings: { supportsStructuredOutputs?: boolean } = {}): LanguageModel =>
      createOpenAICompatible({ name: 'platform', baseURL: apiBase, apiKey: world.chatKey, fetch: wire.fetch, ...settings }).chatModel(world.appNameId);
    const openai = (wire: Wire, world: ChatWorld = w): LanguageModel =>
      createOpenAI({ baseURL: apiBase, apiKey: world.chatKey, fetch: wire.fetch }).chat(world.appNameId);
    const providers = [
      ['@ai-sdk/openai-compatible', (wire: Wire) => compatible(wire, w, { supportsStructuredOutputs: true })],
      ['@ai-sdk/openai (chat)', (wire: Wire) => openai(wire)],
    ] as const;

    const weatherTool = (seen: WeatherInput[]) =>
      tool({
        description: WEATHER_DESCRIPTION,
        inputSchema: weatherInput,
        execute: async (input) => {
          seen.push(input);
          return weatherOf(input);
        },
      });

    describe.each(providers)('%s', (_, model) => {
      it(
        'generateText runs a tool the platform hands back, then answers with its result',
        traced(async (wire) => {
          const seen: WeatherInput[] = [];
          const result = await generateText({
            model: model(wire),
            tools: { get_weather: weatherTool(seen) },
            stopWhen: stepCountIs(3),
            prompt: PARIS_PROMPT,
            maxRetries: 0,
          });
          expect(seen).toEqual([PARIS]);
          expect(result.steps).toHaveLength(2);
          expect(result.steps[0]!.finishReason).toBe('tool-calls');
          expect(result.steps[0]!.toolCalls).toEqual([
            expect.objectContaining({ toolName: 'get_weather', toolCallId: 'call_offline_1_get_weather', input: PARIS }),
          ]);
          expect(result.text).toBe(`Tool result: ${PARIS_RESULT}`);
          expect(result.finishReason).toBe('stop');
          const [first, second] = wire.requests();
          expect(first.tools).toEqual([
            expect.objectContaining({ type: 'function', function: expect.objectContaining({ name: 'get_weather', description: WEATHER_DESCRIPTION }) }),
          ]);
          expect(second.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_offline_1_get_weather', content: PARIS_RESULT });
        }),
      );

      it(
        'generateText builds schema-valid arguments when the prompt has none',
        traced(async (wire) => {
          const seen: WeatherInput[] = [];
          const result = await generateText({
            model: model(wire),
            tools: { get_weather: weatherTool(seen) },
            stopWhen: stepCountIs(3),
            prompt: 'use get_weather for Paris',
            maxRetries: 0,
          });
          expect(seen).toHaveLength(1);
          expect(weatherInput.safeParse(seen[0]).success).toBe(true);
          expect(result.text).toBe(`Tool result: ${JSON.stringify(weatherOf(seen[0]!))}`);
        }),
      );

      it(
        'generateText with Output.object returns a schema-valid object',
        traced(async (wire) => {
          const result = await generateText({
            model: model(wire),
            output: Output.object({ schema: forecastSchema }),
            prompt: 'A forecast for Lyon, please',
            maxRetries: 0,
          });
          expect(forecastSchema.parse(result.output)).toEqual(result.output);
          expect(wire.requests()[0].response_format).toMatchObject({
            type: 'json_schema',
            json_schema: { schema: expect.objectContaining({ type: 'object' }) },
          });
        }),
      );

      it(
        'streamText yields text deltas that add up to the offline reply',
        traced(async (wire) => {
          const result = streamText({ model: model(wire), prompt: 'Stream a reply', maxRetries: 0 });
          const deltas: string[] = [];
          for await (const delta of result.textStream) deltas.push(delta);
          expect(deltas.length).toBeGreaterThan(1);
          expect(deltas.join('')).toBe('Offline reply #1: Stream a reply');
          expect(await result.text).toBe('Offline reply #1: Stream a reply');
          expect(await result.finishReason).toBe('stop');
        }),
      );

      it(
        'streamText runs a tool round: the streamed call, the tool, the streamed answer',
        traced(async (wire) => {
          const seen: WeatherInput[] = [];
          const result = streamText({
            model: model(wire),
            tools: { get_weather: weatherTool(seen) },
            stopWhen: stepCountIs(3),
            prompt: PARIS_PROMPT,
            maxRetries: 0,
          });
          const parts: string[] = [];
          let text = '';
          for await (const part of result.fullStream) {
            parts.push(part.type);
            if (part.type === 'text-delta') text += part.text;
            if (part.type === 'error') throw part.error;
          }
          expect(seen).toEqual([PARIS]);
          expect(parts).toContain('tool-call');
          expect(parts).toContain('tool-result');
          expect(text).toBe(`Tool result: ${PARIS_RESULT}`);
          expect(await result.text).toBe(`Tool result: ${PARIS_RESULT}`);
          expect(wire.requests().map((r) => r.stream)).toEqual([true, true]);
        }),
      );

      it(
        'streamText with Output.object: the streamed JSON parses to a schema-valid object',
        traced(async (wire) => {
          const result = streamText({
            model: model(wire),
            output: Output.object({ schema: forecastSchema }),
            prompt: 'A forecast for Lyon, please',
            maxRetries: 0,
          });
          let partials = 0;
          for await (const _ of result.partialOutputStream) partials++;
          expect(partials).toBeGreaterThan(0);
          const out = await result.output;
          expect(forecastSchema.parse(out)).toEqual(out);
          expect(wire.requests()[0]).toMatchObject({ stream: true, response_format: { type: 'json_schema' } });
        }),
      );
    });

    it(
      'a forced toolChoice calls the tool on a prompt that names none; prepareStep frees the choice for the answer',
      traced(async (wire) => {
        const seen: WeatherInput[] = [];
        const forced = { type: 'tool', toolName: 'get_weather' } as const;
        const result = await generateText({
          model: compatible(wire),
          tools: { get_weather: weatherTool(seen) },
          prepareStep: ({ stepNumber }) => ({ toolChoice: stepNumber === 0 ? forced : 'auto' }),
          stopWhen: stepCountIs(3),
          prompt: 'How warm is it?',
          maxRetries: 0,
        });
        expect(seen).toHaveLength(1);
        expect(weatherInput.safeParse(seen[0]).success).toBe(true);
        expect(wire.requests().map((r) => r.tool_choice)).toEqual([{ type: 'function', function: { name: 'get_weather' } }, 'auto']);
        expect(result.text).toBe(`Tool result: ${JSON.stringify(weatherOf(seen[0]!))}`);

        // Forced on every step, every step is a call, as with OpenAI's models: the loop ends at its step bound.
        const again = new Wire();
        const forcedEach: WeatherInput[] = [];
        const looped = await generateText({
          model: compatible(again),
          tools: { get_weather: weatherTool(forcedEach) },
          toolChoice: forced,
          stopWhen: stepCountIs(3),
          prompt: 'How warm is it?',
          maxRetries: 0,
        });
        expect(looped.steps).toHaveLength(3);
        expect(forcedEach).toHaveLength(3);
        expect(looped.finishReason).toBe('tool-calls');
      }),
    );

    it(
      '@ai-sdk/openai-compatible without supportsStructuredOutputs asks for a JSON object: the offline {"reply": ...} fits a schema of that shape',
      traced(async (wire) => {
        const reply = z.object({ reply: z.string() });
        const result = await generateText({ model: compatible(wire), output: Output.object({ schema: reply }), prompt: 'Say hi', maxRetries: 0 });
        expect(wire.requests()[0].response_format).toEqual({ type: 'json_object' });
        expect(result.output).toEqual({ reply: 'Offline reply #1: Say hi' });
      }),
    );

    it(
      'a tool-calling turn shows in the org export, call and result in order',
      traced(async (wire) => {
        const seen: WeatherInput[] = [];
        const result = await generateText({
          model: openai(wire),
          tools: { get_weather: weatherTool(seen) },
          stopWhen: stepCountIs(3),
          prompt: PARIS_PROMPT,
          maxRetries: 0,
        });
        const [first, second] = wire.exchanges;
        expect(first!.sessionId).toMatch(/^[0-9a-f-]{36}$/);
        expect(second!.sessionId).toMatch(/^[0-9a-f-]{36}$/);
        // The AI SDK exposes each step's response headers, X-Chat-Session-ID among them.
        expect(result.steps.map((s) => s.response.headers?.['x-chat-session-id'])).toEqual([first!.sessionId, second!.sessionId]);
        // No chatSessionId sent: the second call is a session of its own, holding the whole history it was sent.
        expect(second!.sessionId).not.toBe(first!.sessionId);
        const marker = (type: string) => ({ id: 'call_offline_1_get_weather', name: 'get_weather', type });
        expect(await exported(first!.sessionId!)).toEqual([
          expect.objectContaining({ role: 'user', content: PARIS_PROMPT }),
          expect.objectContaining({ role: 'assistant', content: '', tools: [marker('function')] }),
        ]);
        const messages = await exported(second!.sessionId!);
        expect(messages.map(({ role, content, tools }) => ({ role, content, tools }))).toEqual([
          { role: 'user', content: PARIS_PROMPT, tools: undefined },
          { role: 'assistant', content: '', tools: [marker('function')] },
          // The export keeps a tool result's output out, as every marker does.
          { role: 'tool', content: '', tools: [marker('function_result')] },
          { role: 'assistant', content: `Tool result: ${PARIS_RESULT}`, tools: undefined },
        ]);
      }),
    );
  });

  describe('LangChain ChatOpenAI', () => {
    const chatModel = (wire: Wire, world: ChatWorld = w) =>
      new ChatOpenAI({ model: world.appNameId, apiKey: world.chatKey, maxRetries: 0, configuration: { baseURL: apiBase, fetch: wire.fetch } });
    const getWeather = (seen: WeatherInput[]) =>
      langchainTool(
        async (input: WeatherInput) => {
          seen.push(input);
          return JSON.stringify(weatherOf(input));
        },
        { name: 'get_weather', description: WEATHER_DESCRIPTION, schema: weatherInput },
      );

    /** LangChain's ToolMessage carries the tool's `name`, and ChatOpenAI sends it: accepted and ignored. */
    it(
      'bindTools: the AIMessage carries the tool call; the ToolMessage appended gets the Tool result answer',
      traced(async (wire) => {
        const seen: WeatherInput[] = [];
        const weather = getWeather(seen);
        const model = chatModel(wire).bindTools([weather]);
        const history: BaseMessage[] = [new HumanMessage(PARIS_PROMPT)];
        const ai = await model.invoke(history);
        expect(ai.tool_calls).toEqual([{ name: 'get_weather', args: PARIS, id: 'call_offline_1_get_weather', type: 'tool_call' }]);
        const toolMessage = await weather.invoke(ai.tool_calls![0]!);
        expect(seen).toEqual([PARIS]);
        history.push(ai, toolMessage);
        const final = await model.invoke(history);
        expect(final.content).toBe(`Tool result: ${PARIS_RESULT}`);
      }),
    );

    it(
      'bindTools with a ToolMessage without `name` (the workaround): the tool call, then the Tool result answer',
      traced(async (wire) => {
        const seen: WeatherInput[] = [];
        const weather = getWeather(seen);
        const model = chatModel(wire).bindTools([weather]);
        const history: BaseMessage[] = [new HumanMessage(PARIS_PROMPT)];
        const ai = await model.invoke(history);
        expect(ai).toBeInstanceOf(AIMessage);
        expect(ai.tool_calls).toEqual([{ name: 'get_weather', args: PARIS, id: 'call_offline_1_get_weather', type: 'tool_call' }]);
        expect(weatherInput.parse(ai.tool_calls![0]!.args)).toEqual(PARIS);
        expect(ai.response_metadata.finish_reason).toBe('tool_calls');
        const call = ai.tool_calls![0]!;
        const ran = await weather.invoke(call);
        expect(seen).toEqual([PARIS]);
        history.push(ai, new ToolMessage({ content: ran.content, tool_call_id: call.id! }));
        const final = await model.invoke(history);
        expect(final).toBeInstanceOf(AIMessage);
        expect(final.content).toBe(`Tool result: ${PARIS_RESULT}`);
        expect(final.tool_calls ?? []).toEqual([]);
        expect(wire.requests()[1].messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_offline_1_get_weather', content: PARIS_RESULT });
      }),
    );

    it.each([
      ['the default method', undefined],
      ['jsonSchema', 'jsonSchema'],
      ['functionCalling', 'functionCalling'],
    ] as const)('withStructuredOutput (%s) returns a schema-valid object', (_, method) =>
      traced(async (wire) => {
        const structured = chatModel(wire).withStructuredOutput(forecastSchema, method ? { method } : undefined);
        const out = await structured.invoke('A forecast for Lyon, please');
        expect(forecastSchema.parse(out)).toEqual(out);
        const sent = wire.requests()[0];
        if (method === 'functionCalling') expect(sent.tool_choice).toEqual({ type: 'function', function: { name: 'extract' } });
        else expect(sent.response_format).toMatchObject({ type: 'json_schema' });
      })(),
    );

    it(
      '.stream() with bound tools: the tool-call chunks add up to the call',
      traced(async (wire) => {
        const model = chatModel(wire).bindTools([getWeather([])]);
        let merged: AIMessageChunk | undefined;
        for await (const chunk of await model.stream(PARIS_PROMPT)) merged = merged ? merged.concat(chunk) : chunk;
        expect(merged?.tool_calls).toEqual([{ name: 'get_weather', args: PARIS, id: 'call_offline_1_get_weather', type: 'tool_call' }]);
        expect(wire.requests()[0].stream).toBe(true);
      }),
    );

    it(
      '.stream() yields chunks that add up to the offline reply',
      traced(async (wire) => {
        let text = '';
        let chunks = 0;
        for await (const chunk of await chatModel(wire).stream('Stream a reply')) {
          chunks++;
          text += typeof chunk.content === 'string' ? chunk.content : '';
        }
        expect(chunks).toBeGreaterThan(1);
        expect(text).toBe('Offline reply #1: Stream a reply');
      }),
    );
  });

  describe('the openai package', () => {
    const client = (wire: Wire, world: ChatWorld = w) => new OpenAI({ apiKey: world.chatKey, baseURL: apiBase, maxRetries: 0, fetch: wire.fetch });
    const tools: OpenAI.Chat.ChatCompletionTool[] = [
      {
        type: 'function',
        function: { name: 'get_weather', description: WEATHER_DESCRIPTION, parameters: z.toJSONSchema(weatherInput) as Record<string, unknown> },
      },
    ];

    it(
      'create with tools: the tool call, then the result in a tool message, then the answer',
      traced(async (wire) => {
        const c = client(wire);
        const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: PARIS_PROMPT }];
        const first = await c.chat.completions.create({ model: w.appNameId, messages, tools });
        const choice = first.choices[0]!;
        expect(choice.finish_reason).toBe('tool_calls');
        expect(choice.message.tool_calls).toEqual([
          { id: 'call_offline_1_get_weather', type: 'function', function: { name: 'get_weather', arguments: JSON.stringify(PARIS) } },
        ]);
        const call = choice.message.tool_calls![0]!;
        if (call.type !== 'function') throw new Error('not a function call');
        const args = weatherInput.parse(JSON.parse(call.function.arguments));
        // The message as the SDK returned it goes back in the history.
        messages.push(choice.message, { role: 'tool', tool_call_id: call.id, content: JSON.stringify(weatherOf(args)) });
        const second = await c.chat.completions.create({ model: w.appNameId, messages, tools });
        expect(second.choices[0]!.message.content).toBe(`Tool result: ${PARIS_RESULT}`);
        expect(second.choices[0]!.finish_reason).toBe('stop');
      }),
    );

    it(
      'a forced tool_choice calls the named tool with schema-built arguments',
      traced(async (wire) => {
        const first = await client(wire).chat.completions.create({
          model: w.appNameId,
          messages: [{ role: 'user', content: 'What is the weather like?' }],
          tools,
          tool_choice: { type: 'function', function: { name: 'get_weather' } },
          parallel_tool_calls: false,
        });
        const call = first.choices[0]!.message.tool_calls![0]!;
        if (call.type !== 'function') throw new Error('not a function call');
        expect(call.function.name).toBe('get_weather');
        expect(weatherInput.safeParse(JSON.parse(call.function.arguments)).success).toBe(true);
      }),
    );

    it(
      'chat.completions.stream with tools: the streamed call, then a streamed answer to its result',
      traced(async (wire) => {
        const c = client(wire);
        const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: PARIS_PROMPT }];
        const runner = c.chat.completions.stream({ model: w.appNameId, messages, tools });
        const final = await runner.finalChatCompletion();
        const message = final.choices[0]!.message;
        expect(final.choices[0]!.finish_reason).toBe('tool_calls');
        expect(message.tool_calls).toEqual([
          expect.objectContaining({
            id: 'call_offline_1_get_weather',
            type: 'function',
            function: expect.objectContaining({ name: 'get_weather', arguments: JSON.stringify(PARIS) }),
          }),
        ]);
        const call = message.tool_calls![0]!;
        messages.push(
          { role: 'assistant', content: message.content, tool_calls: message.tool_calls },
          { role: 'tool', tool_call_id: call.id, content: PARIS_RESULT },
        );
        const stream = await c.chat.completions.create({ model: w.appNameId, messages, tools, stream: true });
        let text = '';
        for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
        expect(text).toBe(`Tool result: ${PARIS_RESULT}`);
      }),
    );

    it(
      'create({ stream: true }) with tools: the tool-call deltas add up to the call',
      traced(async (wire) => {
        const stream = await client(wire).chat.completions.create({
          model: w.appNameId,
          messages: [{ role: 'user', content: PARIS_PROMPT }],
          tools,
          stream: true,
        });
        const calls = new Map<number, { id?: string; name: string; args: string }>();
        let finish: string | null | undefined;
        for await (const chunk of stream) {
          const choice = chunk.choices[0];
          if (choice?.finish_reason) finish = choice.finish_reason;
          for (const tc of choice?.delta?.tool_calls ?? []) {
            const slot = calls.get(tc.index) ?? { name: '', args: '' };
            if (tc.id) slot.id = tc.id;
            slot.name += tc.function?.name ?? '';
            slot.args += tc.function?.arguments ?? '';
            calls.set(tc.index, slot);
          }
        }
        expect(finish).toBe('tool_calls');
        expect([...calls.values()]).toEqual([{ id: 'call_offline_1_get_weather', name: 'get_weather', args: JSON.stringify(PARIS) }]);
      }),
    );

    it.each([false, true])('runTools (stream: %s) with a zodFunction: the runner calls the tool and ends with the Tool result answer', (stream) =>
      traced(async (wire) => {
        const seen: WeatherInput[] = [];
        const body = {
          model: w.appNameId,
          messages: [{ role: 'user' as const, content: PARIS_PROMPT }],
          tools: [
            zodFunction({
              name: 'get_weather',
              description: WEATHER_DESCRIPTION,
              parameters: weatherInput,
              function: (input: WeatherInput) => {
                seen.push(input);
                return weatherOf(input);
              },
            }),
          ],
        };
        const completions = client(wire).chat.completions;
        const runner = stream ? completions.runTools({ ...body, stream: true }) : completions.runTools(body);
        expect(await runner.finalContent()).toBe(`Tool result: ${PARIS_RESULT}`);
        expect(seen).toEqual([PARIS]);
        expect(wire.requests().map((r) => r.stream ?? false)).toEqual([stream, stream]);
      })(),
    );

    it(
      'chat.completions.parse with zodResponseFormat: message.parsed is valid against the schema',
      traced(async (wire) => {
        const res = await client(wire).chat.completions.parse({
          model: w.appNameId,
          messages: [{ role: 'user', content: 'A forecast for Lyon, please' }],
          response_format: zodResponseFormat(forecastSchema, 'forecast'),
        });
        const parsed = res.choices[0]!.message.parsed;
        expect(parsed).not.toBeNull();
        expect(forecastSchema.parse(parsed)).toEqual(parsed);
      }),
    );

    it(
      'response_format json_schema: the answer is a value valid against the schema',
      traced(async (wire) => {
        const res = await client(wire).chat.completions.create({
          model: w.appNameId,
          messages: [{ role: 'user', content: 'A forecast for Lyon, please' }],
          response_format: {
            type: 'json_schema',
            json_schema: { name: 'forecast', schema: z.toJSONSchema(forecastSchema) as Record<string, unknown>, strict: true },
          },
        });
        const out = JSON.parse(res.choices[0]!.message.content!);
        expect(forecastSchema.parse(out)).toEqual(out);
      }),
    );
  });

  describe('against an OpenAI-compatible upstream (openai:test-model)', () => {
    const completion = (message: Record<string, unknown>, finish: string) => ({
      id: 'chatcmpl-up',
      object: 'chat.completion',
      created: 1,
      model: 'test-model',
      choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
      usage: { prompt_tokens: 10, completion_tokens: 5 },
    });
    const upstreamCall = (args: unknown) =>
      completion(
        { content: null, tool_calls: [{ id: 'call_up_1', type: 'function', function: { name: 'get_weather', arguments: JSON.stringify(args) } }] },
        'tool_calls',
      );
    const OSLO = { city: 'Oslo', unit: 'celsius' } as const;

    it(
      'AI SDK generateText: the upstream gets the tools in OpenAI function shape and the tool result; the client gets both turns',
      traced(async (wire) => {
        upstream.reply({ kind: 'json', body: upstreamCall(OSLO) }, { kind: 'json', body: completion({ content: 'It is 21 degrees in Oslo.' }, 'stop') });
        const seen: WeatherInput[] = [];
        const result = await generateText({
          model: createOpenAICompatible({ name: 'platform', baseURL: apiBase, apiKey: u.chatKey, fetch: wire.fetch }).chatModel(u.appNameId),
          tools: {
            get_weather: tool({
              description: WEATHER_DESCRIPTION,
              inputSchema: weatherInput,
              execute: async (input) => {
                seen.push(input);
                return weatherOf(input);
              },
            }),
          },
          stopWhen: stepCountIs(3),
          prompt: 'What is the weather in Oslo?',
          maxRetries: 0,
        });
        expect(seen).toEqual([OSLO]);
        expect(result.text).toBe('It is 21 degrees in Oslo.');
        expect(result.steps[0]!.toolCalls).toEqual([expect.objectContaining({ toolCallId: 'call_up_1', toolName: 'get_weather', input: OSLO })]);

        expect(upstream.requests).toHaveLength(2);
        const [first, second] = upstream.requests;
        const clientTools = wire.requests()[0].tools;
        expect(first!.headers.authorization).toBe('Bearer sk-upstream');
        expect(first!.body.model).toBe('test-model');
        expect(first!.body.tools).toEqual([
          {
            type: 'function',
            function: { name: 'get_weather', description: WEATHER_DESCRIPTION, parameters: clientTools[0].function.parameters },
          },
        ]);
        expect(first!.body.tools[0].function.parameters).toMatchObject({
          type: 'object',
          properties: { city: { type: 'string', minLength: 1, description: 'City name' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
          required: ['city', 'unit'],
        });
        expect(second!.body.messages).toEqual([
          { role: 'user', content: 'What is the weather in Oslo?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_up_1', type: 'function', function: { name: 'get_weather', arguments: JSON.stringify(OSLO) } }],
          },
          { role: 'tool', tool_call_id: 'call_up_1', content: JSON.stringify(weatherOf(OSLO)) },
        ]);
      }),
    );

    it(
      'AI SDK streamText: two parallel calls the upstream streams in pieces reach the client whole; both results go back upstream',
      traced(async (wire) => {
        const chunk = (delta: unknown, finish: string | null = null) => ({
          id: 'chatcmpl-up',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'test-model',
          choices: [{ index: 0, delta, finish_reason: finish }],
        });
        const call = (index: number, id: string) => chunk({ tool_calls: [{ index, id, type: 'function', function: { name: 'get_weather', arguments: '' } }] });
        const args = (index: number, text: string) => chunk({ tool_calls: [{ index, function: { arguments: text } }] });
        upstream.reply(
          {
            kind: 'sse',
            events: [
              chunk({ role: 'assistant', content: null }),
              call(0, 'call_up_a'),
              args(0, '{"city":"Ber'),
              call(1, 'call_up_b'),
              args(1, '{"city":"Rome","unit":"fahrenheit"}'),
              args(0, 'gen","unit":"celsius"}'),
              chunk({}, 'tool_calls'),
            ],
          },
          {
            kind: 'sse',
            events: [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Bergen 21, ' }), chunk({ content: 'Rome 70.' }), chunk({}, 'stop')],
          },
        );
        const seen: WeatherInput[] = [];
        const result = streamText({
          model: createOpenAICompatible({ name: 'platform', baseURL: apiBase, apiKey: u.chatKey, fetch: wire.fetch }).chatModel(u.appNameId),
          tools: {
            get_weather: tool({
              description: WEATHER_DESCRIPTION,
              inputSchema: weatherInput,
              execute: async (input) => {
                seen.push(input);
                return weatherOf(input);
              },
            }),
          },
          stopWhen: stepCountIs(3),
          prompt: 'Weather in Bergen and Rome?',
          maxRetries: 0,
        });
        expect(await result.text).toBe('Bergen 21, Rome 70.');
        const BERGEN = { city: 'Bergen', unit: 'celsius' } as const;
        const ROME = { city: 'Rome', unit: 'fahrenheit' } as const;
        expect(seen).toEqual([BERGEN, ROME]);
        expect(upstream.requests.map((r) => r.body.stream)).toEqual([true, true]);
        expect(upstream.requests[1]!.body.messages.slice(1)).toEqual([
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_up_a', type: 'function', function: { name: 'get_weather', arguments: JSON.stringify(BERGEN) } },
              { id: 'call_up_b', type: 'function', function: { name: 'get_weather', arguments: JSON.stringify(ROME) } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_up_a', content: JSON.stringify(weatherOf(BERGEN)) },
          { role: 'tool', tool_call_id: 'call_up_b', content: JSON.stringify(weatherOf(ROME)) },
        ]);
      }),
    );

    it(
      'LangChain bindTools: the same round through ChatOpenAI',
      traced(async (wire) => {
        upstream.reply({ kind: 'json', body: upstreamCall(OSLO) }, { kind: 'json', body: completion({ content: 'Sunny in Oslo.' }, 'stop') });
        const weather = langchainTool(async (input: WeatherInput) => JSON.stringify(weatherOf(input)), {
          name: 'get_weather',
          description: WEATHER_DESCRIPTION,
          schema: weatherInput,
        });
        const model = new ChatOpenAI({
          model: u.appNameId,
          apiKey: u.chatKey,
          maxRetries: 0,
          configuration: { baseURL: apiBase, fetch: wire.fetch },
        }).bindTools([weather]);
        const history: BaseMessage[] = [new HumanMessage('What is the weather in Oslo?')];
        const ai = await model.invoke(history);
        expect(ai.tool_calls).toEqual([{ name: 'get_weather', args: OSLO, id: 'call_up_1', type: 'tool_call' }]);
        const ran = await weather.invoke(ai.tool_calls![0]!);
        // Without the `name` LangChain puts on the ToolMessage: the platform refuses it (see the offline case above).
        history.push(ai, new ToolMessage({ content: ran.content, tool_call_id: 'call_up_1' }));
        const final = await model.invoke(history);
        expect(final.content).toBe('Sunny in Oslo.');

        const [first, second] = upstream.requests;
        expect(first!.body.tools).toEqual([
          {
            type: 'function',
            function: { name: 'get_weather', description: WEATHER_DESCRIPTION, parameters: wire.requests()[0].tools[0].function.parameters },
          },
        ]);
        expect(first!.body.tools[0].function.parameters).toMatchObject({
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city', 'unit'],
        });
        expect(second!.body.messages.slice(1)).toEqual([
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_up_1', type: 'function', function: { name: 'get_weather', arguments: JSON.stringify(OSLO) } }],
          },
          { role: 'tool', tool_call_id: 'call_up_1', content: JSON.stringify(weatherOf(OSLO)) },
        ]);
      }),
    );
  });
});
