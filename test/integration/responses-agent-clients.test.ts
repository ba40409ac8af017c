/**
 * Agent clients, unmodified, against the Responses API of the local platform (and the OpenAI Agents SDK on
 * chat completions too): the OpenAI Agents SDK runs function tools and a structured output type, plain and
 * streamed, and continues a run (previousResponseId, a conversationId, a conversations session as memory,
 * or the history on chat completions); the AI SDK's default OpenAI provider (which speaks the Responses API)
 * passes its provider options through; the `openai` package's stored-response and conversation flows.
 *
 * Against the offline model the answers follow its documented rules (offline-chat-model.ts): `use <tool>`
 * in the last user message calls that tool, with the first JSON object of the message as arguments when it
 * is valid against the tool's schema; after tool results it answers from them; a JSON Schema answer is a
 * value built from the schema. Against a loopback OpenAI-compatible upstream (an app whose model is
 * `openai:test-model`) the test asserts what the upstream received. Every exchange goes through a recording
 * fetch, so a failure shows the raw requests and responses.
 */
import { createOpenAI } from '@ai-sdk/openai';
import {
  Agent,
  OpenAIChatCompletionsModel,
  OpenAIConversationsSession,
  OpenAIResponsesModel,
  run,
  setDefaultOpenAIClient,
  setTracingDisabled,
  tool as agentTool,
  type AgentInputItem,
  webSearchTool,
} from '@openai/agents';
import { generateText, Output, stepCountIs, streamText, tool as aiTool } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { chatWorld, patchSettings, type ChatWorld } from '../support/chat';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../support/fake-openai-server';
import { traced, type Wire } from '../support/client-wire';
import { startTestPlatform, type TestPlatform } from '../support/platform';

const weatherInput = z.object({
  city: z.string().describe('City name'),
  unit: z.enum(['celsius', 'fahrenheit']).describe('Temperature unit'),
});
type WeatherInput = z.infer<typeof weatherInput>;
const weatherOf = (input: WeatherInput) => ({ city: input.city, temperature: input.unit === 'celsius' ? 21 : 70, unit: input.unit });
const PARIS = { city: 'Paris', unit: 'celsius' } as const;
const PARIS_PROMPT = `use get_weather for Paris ${JSON.stringify(PARIS)}`;

const report = z.object({ city: z.string(), temperatureC: z.number(), advice: z.string() });

/** The AI SDK's tool of the same weather, recording the inputs it ran with. */
const aiWeatherTool = (seen: WeatherInput[]) =>
  aiTool({
    description: 'The current weather of a city',
    inputSchema: weatherInput,
    execute: async (input) => {
      seen.push(input);
      return weatherOf(input);
    },
  });

/** An agent whose tool records the inputs it ran with. */
function weatherAgent(model: string | OpenAIResponsesModel | OpenAIChatCompletionsModel, seen: WeatherInput[], extra: { reasoning?: boolean } = {}) {
  return new Agent({
    name: 'Weather reporter',
    instructions: 'Report the weather with the get_weather tool.',
    model,
    tools: [
      agentTool({
        name: 'get_weather',
        description: 'The current weather of a city',
        parameters: weatherInput,
        execute: async (input) => {
          seen.push(input);
          return weatherOf(input);
        },
      }),
    ],
    outputType: report,
    ...(extra.reasoning ? { modelSettings: { reasoning: { effort: 'low' as const } } } : {}),
  });
}

describe('agent clients on the Responses API', () => {
  let upstream: FakeOpenAiServer;
  let p: TestPlatform;
  /** An app on the offline model. */
  let w: ChatWorld;
  /** An app whose model is openai:test-model, served by the loopback upstream. */
  let u: ChatWorld;
  let apiBase: string;
  beforeAll(async () => {
    setTracingDisabled(true);
    upstream = await startFakeOpenAiServer();
    p = await startTestPlatform({ visibilityDelayMs: 0, openAiBaseUrl: upstream.baseUrl, openAiApiKey: 'sk-upstream' });
    apiBase = `${p.baseUrl}/api/v1`;
    [w, u] = await Promise.all([chatWorld(p), chatWorld(p)]);
    await patchSettings(p, u.appId, { model: 'openai:test-model' });
  });
  afterAll(async () => {
    await p?.stop();
    await upstream?.close();
  });
  beforeEach(() => {
    upstream.requests.length = 0;
  });

  const client = (wire: Wire, world: ChatWorld = w) => new OpenAI({ baseURL: apiBase, apiKey: world.chatKey, fetch: wire.fetch, maxRetries: 0 });
  const exported = async (sessionId: string) => {
    const res = await p.call('GET', `/api/v1/org/sessions/${sessionId}/messages`, { token: w.orgKey });
    expect(res.status, res.text).toBe(200);
    return (res.body.data.messages as { role: string; content: string }[]).map((m) => [m.role, m.content]);
  };
  /** The chatSessionId of each response the platform answered on /responses, in order. */
  const sessions = async (wire: Wire) =>
    Promise.all(
      wire.exchanges
        .filter((e) => e.method === 'POST' && e.url.endsWith('/responses'))
        .map(async (e) => {
          const text = await e.body;
          if (text.startsWith('{')) return JSON.parse(text).chatSessionId as string;
          const events = text
            .split('\n')
            .filter((l) => l.startsWith('data: {'))
            .map((l) => JSON.parse(l.slice(6)));
          return events.find((ev) => ev.type === 'response.completed')?.response.chatSessionId as string;
        }),
    );

  /**
   * Within a run the SDK sends the whole history again after a tool round (no previous_response_id), so
   * that request opens a session holding it; the run continued with previousResponseId joins that session.
   */
  const expectContinued = async (wire: Wire) => {
    const ids = await sessions(wire);
    expect(ids).toHaveLength(3);
    expect(ids[2], JSON.stringify(ids)).toBe(ids[1]);
    const messages = await exported(ids[2]!);
    expect(messages.filter(([role]) => role === 'user').map(([, c]) => c)).toEqual([PARIS_PROMPT, 'And tomorrow?']);
    expect(messages.map(([role]) => role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant']);
  };

  describe('the OpenAI Agents SDK', () => {
    it(
      'on the Responses API (the default model): runs the tool, parses the output type, and continues with previousResponseId in one session',
      traced(async (wire) => {
        // The SDK's default client is process-wide: only this test uses it, the others name their model object.
        setDefaultOpenAIClient(client(wire));
        const seen: WeatherInput[] = [];
        const agent = weatherAgent(w.appNameId, seen);
        const first = await run(agent, PARIS_PROMPT);
        expect(seen).toEqual([PARIS]);
        expect(report.parse(first.finalOutput)).toEqual(first.finalOutput);
        expect(first.lastResponseId).toMatch(/^resp_/);
        const [call, answer] = wire.requests('/responses');
        expect(call.text?.format).toMatchObject({ type: 'json_schema' });
        expect(answer.previous_response_id).toBeUndefined();
        expect(answer.input.map((i: { type?: string; role?: string }) => i.type ?? i.role)).toEqual(['user', 'function_call', 'function_call_output']);

        const second = await run(agent, 'And tomorrow?', { previousResponseId: first.lastResponseId });
        expect(report.parse(second.finalOutput)).toEqual(second.finalOutput);
        expect(wire.requests('/responses').at(-1).previous_response_id).toBe(first.lastResponseId);
        await expectContinued(wire);
      }),
    );

    it(
      'on the Responses API streamed: the text stream carries the structured answer; a streamed continuation stays in the session',
      traced(async (wire) => {
        const seen: WeatherInput[] = [];
        const agent = weatherAgent(new OpenAIResponsesModel(client(wire), w.appNameId), seen);
        const first = await run(agent, PARIS_PROMPT, { stream: true });
        let text = '';
        for await (const delta of first.toTextStream()) text += delta;
        await first.completed;
        expect(seen).toEqual([PARIS]);
        expect(report.parse(JSON.parse(text))).toEqual(first.finalOutput);
        expect(wire.requests('/responses').every((r) => r.stream === true)).toBe(true);

        const second = await run(agent, 'And tomorrow?', { stream: true, previousResponseId: first.lastResponseId });
        for await (const _ of second) {
          // drained: the run completes only once its events are read
        }
        await second.completed;
        expect(report.parse(second.finalOutput)).toEqual(second.finalOutput);
        await expectContinued(wire);
      }),
    );

    it(
      'a run continued by previousResponseId chains its own tool round by previous_response_id too: one session throughout',
      traced(async (wire) => {
        const seen: WeatherInput[] = [];
        const agent = weatherAgent(new OpenAIResponsesModel(client(wire), w.appNameId), seen);
        const first = await run(agent, 'Hello');
        const OSLO = { city: 'Oslo', unit: 'fahrenheit' } as const;
        const second = await run(agent, `use get_weather for Oslo ${JSON.stringify(OSLO)}`, { previousResponseId: first.lastResponseId });
        expect(seen).toEqual([OSLO]);
        expect(report.parse(second.finalOutput)).toEqual(second.finalOutput);
        const sent = wire.requests('/responses');
        expect(sent).toHaveLength(3);
        expect(sent[2].input).toEqual([expect.objectContaining({ type: 'function_call_output', output: JSON.stringify(weatherOf(OSLO)) })]);
        expect(sent[2].previous_response_id).toMatch(/^resp_/);
        expect(sent[2].previous_response_id).not.toBe(first.lastResponseId);
        const ids = await sessions(wire);
        expect(new Set(ids).size, JSON.stringify(ids)).toBe(1);
        expect((await exported(ids[0]!)).map(([role]) => role)).toEqual(['user', 'assistant', 'user', 'assistant', 'tool', 'assistant']);
      }),
    );

    it(
      'on the Responses API with a conversationId: both runs land in the conversation, the tool round included',
      traced(async (wire) => {
        const c = client(wire);
        const conversation = await c.conversations.create({});
        const seen: WeatherInput[] = [];
        const agent = weatherAgent(new OpenAIResponsesModel(c, w.appNameId), seen);
        const first = await run(agent, PARIS_PROMPT, { conversationId: conversation.id });
        expect(seen).toEqual([PARIS]);
        expect(report.parse(first.finalOutput)).toEqual(first.finalOutput);
        const second = await run(agent, 'And tomorrow?', { conversationId: conversation.id });
        expect(report.parse(second.finalOutput)).toEqual(second.finalOutput);
        expect(wire.requests('/responses').map((r) => r.conversation)).toEqual([conversation.id, conversation.id, conversation.id]);
        const items = [];
        for await (const item of c.conversations.items.list(conversation.id, { order: 'asc' })) items.push(item.type);
        expect(items).toEqual(['message', 'function_call', 'function_call_output', 'message', 'message', 'message']);
      }),
    );

    it(
      'with an OpenAIConversationsSession as memory: the session keeps the runs in a conversation of the platform',
      traced(async (wire) => {
        const c = client(wire);
        const session = new OpenAIConversationsSession({ client: c });
        const seen: WeatherInput[] = [];
        const agent = weatherAgent(new OpenAIResponsesModel(c, w.appNameId), seen);
        const first = await run(agent, PARIS_PROMPT, { session });
        expect(seen).toEqual([PARIS]);
        expect(report.parse(first.finalOutput)).toEqual(first.finalOutput);
        const second = await run(agent, 'And tomorrow?', { session });
        expect(report.parse(second.finalOutput)).toEqual(second.finalOutput);
        const conversationId = await session.getSessionId();
        expect(conversationId).toMatch(/^conv_/);
        // The SDK adds each run's new items to the conversation and reads them back as the next run's input.
        const items = await session.getItems();
        expect(items.map((i) => [i.type, 'role' in i ? i.role : undefined])).toEqual([
          ['message', 'user'],
          ['function_call', undefined],
          ['function_call_result', undefined],
          ['message', 'assistant'],
          ['message', 'user'],
          ['message', 'assistant'],
        ]);
        expect(wire.requests(`/conversations/${conversationId}/items`)).toHaveLength(2);
      }),
    );

    it(
      'a handoff: the triage agent’s transfer call hands the run to the weather agent, whose output type ends it; a hosted tool is accepted alongside',
      traced(async (wire) => {
        const model = new OpenAIResponsesModel(client(wire), w.appNameId);
        const reporter = weatherAgent(model, []);
        const triage = new Agent({ name: 'Triage', instructions: 'Hand weather questions over.', model, handoffs: [reporter], tools: [webSearchTool()] });
        const result = await run(triage, 'use transfer_to_weather_reporter');
        expect(result.lastAgent).toBe(reporter);
        expect(report.parse(result.finalOutput)).toEqual(result.finalOutput);
        const [handoff, answer] = wire.requests('/responses');
        expect(handoff.tools.map((t: { type: string; name?: string }) => t.name ?? t.type)).toEqual(['web_search', 'transfer_to_Weather_reporter']);
        expect(answer.instructions).toBe(reporter.instructions);
        expect(answer.input.at(-1)).toMatchObject({ type: 'function_call_output' });
      }),
    );

    it.each(['responses', 'chat_completions'] as const)(
      'on %s, richer schemas (nested objects, arrays, enums, nullable, a union): the tool gets valid arguments, the output is valid',
      (api) =>
        traced(async (wire) => {
          const forecast = z.object({
            city: z.string().min(2),
            days: z.array(z.object({ day: z.number().int().min(1).max(7), sky: z.enum(['sunny', 'cloudy', 'rain']), highC: z.number() })).min(1),
            alert: z.string().nullable(),
            source: z.union([z.object({ kind: z.literal('station'), id: z.string() }), z.object({ kind: z.literal('model'), name: z.string() })]),
          });
          const c = client(wire);
          const model = api === 'responses' ? new OpenAIResponsesModel(c, w.appNameId) : new OpenAIChatCompletionsModel(c, w.appNameId);
          const trip = z.object({
            stops: z.array(z.object({ city: z.string(), nights: z.number().int().min(1) })).min(1),
            travel: z.enum(['train', 'car']),
            budget: z.number().nullable(),
            traveller: z.union([z.object({ adult: z.literal(true) }), z.object({ adult: z.literal(false), age: z.number().int() })]),
          });
          const planned: unknown[] = [];
          const planTrip = agentTool({
            name: 'plan_trip',
            description: 'Plans a trip',
            parameters: trip,
            execute: async (input) => {
              planned.push(input);
              return 'planned';
            },
          });
          const agent = new Agent({ name: 'Forecaster', instructions: 'Forecast.', model, tools: [planTrip], outputType: forecast });
          const result = await run(agent, 'use plan_trip, then a forecast for Lyon');
          expect(planned).toHaveLength(1);
          expect(trip.parse(planned[0])).toEqual(planned[0]);
          expect(forecast.parse(result.finalOutput)).toEqual(result.finalOutput);
        })(),
    );

    it.each(['responses', 'chat_completions'] as const)(
      'on %s with the model settings agents set (a forced tool choice among them): the forced call, then the answer',
      (api) =>
        traced(async (wire) => {
          const c = client(wire);
          const seen: WeatherInput[] = [];
          const model = api === 'responses' ? new OpenAIResponsesModel(c, w.appNameId) : new OpenAIChatCompletionsModel(c, w.appNameId);
          const agent = weatherAgent(model, seen).clone({
            modelSettings: {
              temperature: 0.2,
              topP: 0.9,
              frequencyPenalty: 0,
              presencePenalty: 0,
              toolChoice: 'get_weather',
              parallelToolCalls: false,
              truncation: 'auto',
              maxTokens: 500,
              store: true,
              promptCacheRetention: '24h',
              promptCacheOptions: { mode: 'implicit' },
              contextManagement: [{ type: 'compaction', compactThreshold: 100_000 }],
              reasoning: { effort: 'low', summary: 'auto' },
              text: { verbosity: 'low' },
            },
          });
          const result = await run(agent, 'How warm is it in Paris?');
          expect(seen).toHaveLength(1);
          expect(weatherInput.safeParse(seen[0]).success).toBe(true);
          expect(report.parse(result.finalOutput)).toEqual(result.finalOutput);
          // The SDK frees the choice after the forced call, so the second request gets the answer.
          const sent = wire.requests(api === 'responses' ? '/responses' : '/chat/completions');
          expect(sent).toHaveLength(2);
          expect(sent[0].tool_choice).toEqual(
            api === 'responses' ? { type: 'function', name: 'get_weather' } : { type: 'function', function: { name: 'get_weather' } },
          );
          expect(sent[1].tool_choice ?? 'auto').toBe('auto');
        })(),
    );

    it.each([false, true])('on chat completions (stream: %s): runs the tool, parses the output type, and continues from the first run’s history', (stream) =>
      traced(async (wire) => {
        const seen: WeatherInput[] = [];
        const agent = weatherAgent(new OpenAIChatCompletionsModel(client(wire), w.appNameId), seen);
        const drain = async (input: string | AgentInputItem[]) => {
          if (!stream) return run(agent, input);
          const result = await run(agent, input, { stream: true });
          let text = '';
          for await (const delta of result.toTextStream()) text += delta;
          await result.completed;
          expect(report.parse(JSON.parse(text))).toEqual(result.finalOutput);
          return result;
        };
        const first = await drain(PARIS_PROMPT);
        expect(seen).toEqual([PARIS]);
        expect(report.parse(first.finalOutput)).toEqual(first.finalOutput);
        const [call] = wire.requests('/chat/completions');
        expect(call.response_format).toMatchObject({ type: 'json_schema' });
        expect(call.stream ?? false).toBe(stream);

        const second = await drain([...first.history, { role: 'user', content: 'And tomorrow?' }]);
        expect(report.parse(second.finalOutput)).toEqual(second.finalOutput);
        const last = wire.requests('/chat/completions').at(-1);
        expect(last.messages.filter((m: { role: string }) => m.role === 'user').map((m: { content: unknown }) => m.content)).toEqual([
          PARIS_PROMPT,
          'And tomorrow?',
        ]);
        // Chat completions carry no link between calls: the continuation is a new session holding the history it was sent.
        const answered = await wire.exchanges.at(-1)!.body;
        const sessionId = /"chatSessionId":"([^"]+)"/.exec(answered)?.[1];
        expect(sessionId).not.toBe(/"chatSessionId":"([^"]+)"/.exec(await wire.exchanges[0]!.body)?.[1]);
        expect((await exported(sessionId!)).map(([role]) => role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant']);
      })(),
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
    const OSLO = { city: 'Oslo', unit: 'celsius' } as const;
    const OSLO_REPORT = { city: 'Oslo', temperatureC: 21, advice: 'Bring sunglasses.' };

    it.each(['responses', 'chat_completions'] as const)(
      'the Agents SDK (%s) with reasoning effort low: the upstream gets reasoning_effort, the tool runs, the scripted JSON answer parses',
      (api) =>
        traced(async (wire) => {
          upstream.reply(
            {
              kind: 'json',
              body: completion(
                { content: null, tool_calls: [{ id: 'call_up_1', type: 'function', function: { name: 'get_weather', arguments: JSON.stringify(OSLO) } }] },
                'tool_calls',
              ),
            },
            { kind: 'json', body: completion({ content: JSON.stringify(OSLO_REPORT) }, 'stop') },
          );
          const seen: WeatherInput[] = [];
          const model =
            api === 'responses' ? new OpenAIResponsesModel(client(wire, u), u.appNameId) : new OpenAIChatCompletionsModel(client(wire, u), u.appNameId);
          const result = await run(weatherAgent(model, seen, { reasoning: true }), 'Weather in Oslo?');
          expect(seen).toEqual([OSLO]);
          expect(result.finalOutput).toEqual(OSLO_REPORT);
          const sent =
            api === 'responses' ? wire.requests('/responses').map((r) => r.reasoning) : wire.requests('/chat/completions').map((r) => r.reasoning_effort);
          expect(sent).toEqual(api === 'responses' ? [{ effort: 'low' }, { effort: 'low' }] : ['low', 'low']);
          expect(upstream.requests.map((r) => r.body.reasoning_effort)).toEqual(['low', 'low']);
          const [first, second] = upstream.requests;
          expect(first!.body.model).toBe('test-model');
          expect(first!.body.tools).toEqual([expect.objectContaining({ type: 'function', function: expect.objectContaining({ name: 'get_weather' }) })]);
          expect(first!.body.response_format).toMatchObject({ type: 'json_schema' });
          expect(second!.body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_up_1', content: JSON.stringify(weatherOf(OSLO)) });
        })(),
    );

    it(
      'the Agents SDK streamed on the Responses API: the platform asks the upstream without a stream (an answer with a schema is checked whole) and streams the result',
      traced(async (wire) => {
        upstream.reply(
          {
            kind: 'json',
            body: completion(
              { content: null, tool_calls: [{ id: 'call_up_1', type: 'function', function: { name: 'get_weather', arguments: JSON.stringify(OSLO) } }] },
              'tool_calls',
            ),
          },
          { kind: 'json', body: completion({ content: JSON.stringify(OSLO_REPORT) }, 'stop') },
        );
        const seen: WeatherInput[] = [];
        const agent = weatherAgent(new OpenAIResponsesModel(client(wire, u), u.appNameId), seen, { reasoning: true });
        const result = await run(agent, 'Weather in Oslo?', { stream: true });
        let text = '';
        for await (const delta of result.toTextStream()) text += delta;
        await result.completed;
        expect(seen).toEqual([OSLO]);
        expect(JSON.parse(text)).toEqual(OSLO_REPORT);
        expect(result.finalOutput).toEqual(OSLO_REPORT);
        expect(wire.requests('/responses').map((r) => r.stream)).toEqual([true, true]);
        expect(upstream.requests.map((r) => [r.body.stream ?? false, r.body.reasoning_effort])).toEqual([
          [false, 'low'],
          [false, 'low'],
        ]);
      }),
    );

    it.each(['responses', 'chat_completions'] as const)(
      'a text agent streamed on %s: the upstream streams the call in pieces and the answer in deltas, the SDK assembles both',
      (api) =>
        traced(async (wire) => {
          const chunk = (delta: unknown, finish: string | null = null) => ({
            id: 'chatcmpl-up',
            object: 'chat.completion.chunk',
            created: 1,
            model: 'test-model',
            choices: [{ index: 0, delta, finish_reason: finish }],
          });
          upstream.reply(
            {
              kind: 'sse',
              events: [
                chunk({ role: 'assistant', content: null }),
                chunk({ tool_calls: [{ index: 0, id: 'call_up_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Os' } }] }),
                chunk({ tool_calls: [{ index: 0, function: { arguments: 'lo","unit":"celsius"}' } }] }),
                chunk({}, 'tool_calls'),
              ],
            },
            {
              kind: 'sse',
              events: [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Oslo: 21 °C, ' }), chunk({ content: 'sunny.' }), chunk({}, 'stop')],
            },
          );
          const seen: WeatherInput[] = [];
          const c = client(wire, u);
          const model = api === 'responses' ? new OpenAIResponsesModel(c, u.appNameId) : new OpenAIChatCompletionsModel(c, u.appNameId);
          const agent = new Agent({ name: 'Weather', instructions: 'Use get_weather.', model, tools: weatherAgent(model, seen).tools });
          const result = await run(agent, 'Weather in Oslo?', { stream: true });
          const deltas: string[] = [];
          for await (const delta of result.toTextStream()) deltas.push(delta);
          await result.completed;
          expect(seen).toEqual([OSLO]);
          expect(deltas).toEqual(['Oslo: 21 °C, ', 'sunny.']);
          expect(result.finalOutput).toBe('Oslo: 21 °C, sunny.');
          expect(upstream.requests.map((r) => r.body.stream)).toEqual([true, true]);
        })(),
    );

    it(
      'the AI SDK default provider: generateText with reasoningEffort and store reaches the upstream as reasoning_effort',
      traced(async (wire) => {
        upstream.reply({ kind: 'json', body: completion({ content: 'Sunny in Oslo.' }, 'stop') });
        const result = await generateText({
          model: createOpenAI({ baseURL: apiBase, apiKey: u.chatKey, fetch: wire.fetch })(u.appNameId),
          prompt: 'Weather in Oslo?',
          // The provider sends reasoning only for model ids it knows to reason; an app's id is its own name.
          providerOptions: { openai: { reasoningEffort: 'low', store: true, forceReasoning: true } },
          maxRetries: 0,
        });
        expect(result.text).toBe('Sunny in Oslo.');
        expect(wire.requests('/responses')[0]).toMatchObject({ reasoning: { effort: 'low' }, store: true });
        expect(upstream.requests).toHaveLength(1);
        expect(upstream.requests[0]!.body.reasoning_effort).toBe('low');
      }),
    );
  });

  it(
    'the AI SDK default provider: streamText on the offline model streams a reply, and a tool round, over the Responses API',
    traced(async (wire) => {
      const result = streamText({
        model: createOpenAI({ baseURL: apiBase, apiKey: w.chatKey, fetch: wire.fetch })(w.appNameId),
        prompt: 'Stream a reply',
        maxRetries: 0,
      });
      const deltas: string[] = [];
      for await (const delta of result.textStream) deltas.push(delta);
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join('')).toBe('Offline reply #1: Stream a reply');
      expect(await result.finishReason).toBe('stop');
      expect(wire.requests('/responses')).toEqual([expect.objectContaining({ stream: true })]);

      // A streamed tool round: the provider sends the call back with the tool's output.
      const seen: WeatherInput[] = [];
      const round = streamText({
        model: createOpenAI({ baseURL: apiBase, apiKey: w.chatKey, fetch: wire.fetch })(w.appNameId),
        tools: {
          get_weather: aiWeatherTool(seen),
        },
        stopWhen: stepCountIs(3),
        prompt: PARIS_PROMPT,
        maxRetries: 0,
      });
      expect(await round.text).toBe(`Tool result: ${JSON.stringify(weatherOf(PARIS))}`);
      expect(seen).toEqual([PARIS]);
      const [, , second] = wire.requests('/responses');
      expect(second.input.map((i: { type?: string; role?: string }) => i.type ?? i.role)).toEqual(['user', 'function_call', 'function_call_output']);
    }),
  );

  it(
    'the AI SDK default provider: generateText with its Responses provider options, a tool and an output schema; previousResponseId continues the session',
    traced(async (wire) => {
      const model = createOpenAI({ baseURL: apiBase, apiKey: w.chatKey, fetch: wire.fetch })(w.appNameId);
      const seen: WeatherInput[] = [];
      const first = await generateText({
        model,
        tools: {
          get_weather: aiWeatherTool(seen),
        },
        prompt: PARIS_PROMPT,
        maxRetries: 0,
        providerOptions: {
          openai: {
            instructions: 'Be brief.',
            maxToolCalls: 3,
            metadata: { run: 'ai-sdk' },
            parallelToolCalls: false,
            promptCacheKey: 'weather',
            promptCacheRetention: '24h',
            safetyIdentifier: 'user-1',
            serviceTier: 'auto',
            store: true,
            strictJsonSchema: true,
            textVerbosity: 'low',
            truncation: 'auto',
            user: 'user-1',
            include: ['reasoning.encrypted_content'],
          },
        },
      });
      expect(seen).toEqual([PARIS]);
      expect(first.finishReason).toBe('tool-calls');
      expect(wire.requests('/responses')[0]).toMatchObject({
        instructions: 'Be brief.',
        max_tool_calls: 3,
        metadata: { run: 'ai-sdk' },
        parallel_tool_calls: false,
        prompt_cache_key: 'weather',
        prompt_cache_retention: '24h',
        safety_identifier: 'user-1',
        service_tier: 'auto',
        store: true,
        text: { verbosity: 'low' },
        truncation: 'auto',
        user: 'user-1',
        include: ['reasoning.encrypted_content'],
      });
      const callResponseId = first.providerMetadata?.openai?.responseId as string;
      expect(callResponseId).toMatch(/^resp_/);
      const second = await generateText({
        model,
        output: Output.object({ schema: report }),
        prompt: 'And the report?',
        maxRetries: 0,
        providerOptions: { openai: { previousResponseId: callResponseId, store: true } },
      });
      expect(report.parse(second.output)).toEqual(second.output);
      const ids = await sessions(wire);
      expect(ids).toHaveLength(2);
      expect(ids[1]).toBe(ids[0]);
    }),
  );

  describe('the openai package', () => {
    it(
      'responses.stream, then retrieve, inputItems.list and delete of the streamed response',
      traced(async (wire) => {
        const c = client(wire);
        const stream = c.responses.stream({ model: w.appNameId, input: 'Keep this stream' });
        let text = '';
        for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
        const final = await stream.finalResponse();
        expect(text).toBe('Offline reply #1: Keep this stream');
        // The stream helper adds `parsed` to the parts it hands back: the stored response is compared without it.
        expect(await c.responses.retrieve(final.id)).toMatchObject({ id: final.id, status: 'completed', output_text: text, usage: final.usage });
        const items = [];
        for await (const item of c.responses.inputItems.list(final.id)) items.push(item);
        expect(items).toEqual([expect.objectContaining({ type: 'message', role: 'user', content: [expect.objectContaining({ text: 'Keep this stream' })] })]);
        const deleted = await c.responses.delete(final.id);
        expect(deleted).toMatchObject({ id: final.id, deleted: true });
        await expect(c.responses.retrieve(final.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
      }),
    );

    it(
      'conversations.create, responses.create({ conversation }) twice, conversations.items.list',
      traced(async (wire) => {
        const c = client(wire);
        const conversation = await c.conversations.create({ metadata: { topic: 'weather' } });
        expect(conversation.id).toMatch(/^conv_/);
        const first = await c.responses.create({ model: w.appNameId, input: 'First', conversation: conversation.id });
        const second = await c.responses.create({ model: w.appNameId, input: 'Second', conversation: { id: conversation.id } });
        expect(second.output_text).toBe('Offline reply #2: Second');
        expect(first.conversation).toEqual({ id: conversation.id });
        const items = [];
        for await (const item of c.conversations.items.list(conversation.id, { order: 'asc' })) items.push(item);
        const texts = items.map((i) => (i as { role?: string; content?: { text: string }[] }).content?.map((part) => part.text).join(''));
        expect(texts).toEqual(['First', 'Offline reply #1: First', 'Second', 'Offline reply #2: Second']);
      }),
    );
  });
});
