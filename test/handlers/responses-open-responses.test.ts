/**
 * POST /api/v1/responses over HTTP, checked against the Open Responses document: every answer is a valid
 * `ResponseResource` and every stream event valid against its event schema, in the order clients read
 * them. The requests are a class generated with a fixed seed: text or message input, instructions,
 * streamed or not, function tools with and without `strict`, a function call answered with its output,
 * structured output, `previous_response_id`, `max_output_tokens`, `temperature` and `top_p`.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatWorld, patchSettings, type ChatWorld } from '../support/chat';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../support/fake-openai-server';
import { expectOpenResponse, expectOpenResponsesEvent } from '../support/open-responses-schemas';
import { startTestPlatform, type TestPlatform } from '../support/platform';

const RESPONSES = '/api/v1/responses';
type Body = Record<string, unknown>;
type Event = { type: string; sequence_number: number; response?: Body };

const weather = (strict: boolean | undefined) => ({
  type: 'function',
  name: 'get_weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  ...(strict === undefined ? {} : { strict }),
});
const person = {
  format: {
    type: 'json_schema',
    name: 'person',
    strict: true,
    schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
  },
};

const request = fc.record({
  messages: fc.boolean(),
  instructions: fc.option(fc.constantFrom('Be brief.', 'Answer in French.'), { nil: undefined }),
  stream: fc.boolean(),
  scenario: fc.constantFrom('plain', 'function_call', 'structured', 'previous'),
  /** The function tool offered (none with structured output), and its `strict`. */
  tool: fc.constantFrom('none', 'strict', 'loose', 'unset'),
  maxOutputTokens: fc.option(fc.integer({ min: 16, max: 4096 }), { nil: undefined }),
  temperature: fc.option(fc.double({ min: 0, max: 2, noNaN: true }), { nil: undefined }),
  topP: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
});
type Case = typeof request extends fc.Arbitrary<infer T> ? T : never;

describe('the Responses API against the Open Responses document', () => {
  let p: TestPlatform;
  let w: ChatWorld;
  let upstream: FakeOpenAiServer;
  beforeAll(async () => {
    upstream = await startFakeOpenAiServer();
    p = await startTestPlatform({ visibilityDelayMs: 0, openAiBaseUrl: upstream.baseUrl });
    w = await chatWorld(p);
  });
  afterAll(async () => {
    await p.stop();
    await upstream.close();
  });

  const events = (text: string): Event[] =>
    text
      .split('\n\n')
      .filter((e) => e.startsWith('event: '))
      .map((e) => JSON.parse(e.slice(e.indexOf('data: ') + 6)) as Event);

  /** Streams one request and checks every event against the document and the order clients read. */
  async function streamed(body: Body, headers: Record<string, string> = {}, token = w.chatKey): Promise<Event[]> {
    const res = await fetch(`${p.baseUrl}${RESPONSES}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ ...body, stream: true }),
    });
    expect(res.status).toBe(200);
    const list = events(await res.text());
    for (const e of list) expectOpenResponsesEvent(e);
    const types = list.map((e) => e.type);
    expect(list.map((e) => e.sequence_number)).toEqual(list.map((_, i) => i));
    expect(types.slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
    const firstDelta = types.indexOf('response.output_text.delta');
    if (firstDelta >= 0) {
      expect(types.indexOf('response.output_item.added')).toBeLessThan(firstDelta);
      expect(types.indexOf('response.content_part.added')).toBeLessThan(firstDelta);
    }
    const last = list.at(-1)!;
    expect(['response.completed', 'response.incomplete', 'response.failed']).toContain(last.type);
    expect(last.response).toMatchObject({ id: expect.any(String), model: body.model, status: expect.any(String), output: expect.any(Array) });
    return list;
  }

  /** Sends one request, checks every answer or event against the document; returns the final response. */
  async function send(body: Body, stream: boolean): Promise<Body> {
    if (stream) return (await streamed(body)).at(-1)!.response!;
    const res = await p.call('POST', RESPONSES, { token: w.chatKey, body });
    expect(res.status, res.text).toBe(200);
    expectOpenResponse(res.body);
    return res.body;
  }

  /** The tool a case offers: a function call needs one, structured output is asked without. */
  function toolOf(c: Case): { strict: boolean | undefined } | undefined {
    if (c.scenario === 'structured' || (c.tool === 'none' && c.scenario !== 'function_call')) return undefined;
    return { strict: c.tool === 'strict' ? true : c.tool === 'loose' ? false : undefined };
  }

  function bodyOf(c: Case, text: string): Body {
    const tool = toolOf(c);
    const input = c.messages ? [{ role: 'user', content: text }] : text;
    return {
      model: w.appNameId,
      input,
      ...(c.instructions ? { instructions: c.instructions } : {}),
      ...(c.maxOutputTokens !== undefined ? { max_output_tokens: c.maxOutputTokens } : {}),
      ...(c.temperature !== undefined ? { temperature: c.temperature } : {}),
      ...(c.topP !== undefined ? { top_p: c.topP } : {}),
      ...(tool ? { tools: [weather(tool.strict)] } : {}),
      ...(c.scenario === 'structured' ? { text: person } : {}),
    };
  }

  /** The echo holds the request's own values, else the defaults a strict client expects. */
  function expectEcho(r: Body, c: Case): void {
    expect(r).toMatchObject({
      temperature: c.temperature ?? 1,
      top_p: c.topP ?? 1,
      presence_penalty: 0,
      frequency_penalty: 0,
      top_logprobs: 0,
      background: false,
      service_tier: 'default',
      max_output_tokens: c.maxOutputTokens ?? null,
      instructions: c.instructions ?? null,
    });
    expect(r.completed_at === null || (Number.isInteger(r.completed_at) && (r.completed_at as number) >= (r.created_at as number))).toBe(true);
    if (r.status === 'completed') expect(r.completed_at).toEqual(expect.any(Number));
  }

  it('answers a generated class of requests validly, streamed or not', async () => {
    const cases = fc.sample(request, { seed: 20261129, numRuns: 40 });
    for (const c of cases) {
      const first = await send(bodyOf(c, c.scenario === 'function_call' ? 'use get_weather {"city":"Paris"}' : 'Hello there'), c.stream);
      expectEcho(first, c);
      const tool = toolOf(c);
      expect((first.tools as Body[]).map((t) => t.strict)).toEqual(tool ? [tool.strict ?? false] : []);
      if (c.scenario === 'function_call') {
        const call = (first.output as Body[]).find((o) => o.type === 'function_call');
        expect(call, JSON.stringify(first.output)).toBeDefined();
        const next = {
          ...bodyOf(c, ''),
          previous_response_id: first.id,
          input: [{ type: 'function_call_output', call_id: call!.call_id, output: 'Sunny, 21 °C' }],
        };
        expectEcho(await send(next, !c.stream), c);
      }
      if (c.scenario === 'previous') {
        const second = await send({ ...bodyOf(c, 'And again'), previous_response_id: first.id }, c.stream);
        expect(second.previous_response_id).toBe(first.id);
        expectEcho(second, c);
      }
    }
  }, 60_000);

  it('replays a stream for a repeated Idempotency-Key, and fails a stream after its first byte, validly', async () => {
    const body = { model: w.appNameId, input: 'Once only', tools: [weather(undefined)] };
    const first = await streamed(body, { 'Idempotency-Key': 'open-responses-1' });
    const replayed = await streamed(body, { 'Idempotency-Key': 'open-responses-1' });
    expect(replayed.at(-1)!.response).toEqual(first.at(-1)!.response);

    // An upstream answering 500 (nothing scripted): response.failed after the first events.
    const broken = await chatWorld(p);
    await patchSettings(p, broken.appId, { model: 'openai:test-model' });
    const failed = await streamed({ model: broken.appNameId, input: 'Hello' }, {}, broken.chatKey);
    expect(failed.at(-1)).toMatchObject({ type: 'response.failed', response: { status: 'failed', completed_at: null, error: expect.any(Object) } });
  });
});
