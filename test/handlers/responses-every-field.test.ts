/**
 * POST /api/v1/responses with the whole request the current OpenAI reference defines: a class of
 * requests generated with a fixed seed, each carrying every field (reasoning, include, store,
 * prompt_cache_key, safety_identifier, metadata, service_tier, truncation, max_tool_calls,
 * top_logprobs, client_metadata and the rest), every tool type (function, namespace, a remote mcp
 * server, the hosted tools) and every input item type (messages of each role with text, image and file
 * parts, a function call and its output, an item reference, a reasoning item), streamed or not, against the offline model and a
 * loopback OpenAI-compatible upstream that records what it receives. Every one is answered 200 with a
 * valid Open Responses object, and the upstream sees the reasoning effort, the functions and the mcp
 * server's tools, and none of the hosted tools.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatWorld, patchSettings, type ChatWorld } from '../support/chat';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../support/fake-openai-server';
import { FakeResolver } from '../support/fake-resolver';
import { png, textPdf } from '../support/file-fixtures';
import { startMcpTestServer, type McpTestServer } from '../support/mcp-test-server';
import { makeCertificates, RECEIVER_HOST } from '../support/webhook-receiver';
import { expectOpenResponse, expectOpenResponsesEvent } from '../support/open-responses-schemas';
import { startTestPlatform, type TestPlatform } from '../support/platform';

const RESPONSES = '/api/v1/responses';
/** A small image and a PDF inline, as clients send them (stored as files of the session). */
const IMAGE = `data:image/png;base64,${Buffer.from(png(4, 4)).toString('base64')}`;
const PDF = `data:application/pdf;base64,${Buffer.from(textPdf('Sunny tomorrow')).toString('base64')}`;
/**
 * The host the requests name for their mcp server: the test's resolver answers it with loopback, and no
 * real DNS knows it, so a tool call that reaches the server proves the connection went to the checked
 * address (the MCP client is pinned to it). The server is HTTPS with a certificate of this run's test CA.
 */
const MCP_HOST = RECEIVER_HOST;
type Body = Record<string, unknown>;

const HOSTED = [
  'web_search',
  'web_search_preview',
  'file_search',
  'code_interpreter',
  'image_generation',
  'computer_use_preview',
  'local_shell',
  'shell',
  'custom',
  'apply_patch',
];
const INCLUDABLE = [
  'file_search_call.results',
  'web_search_call.results',
  'web_search_call.action.sources',
  'message.input_image.image_url',
  'computer_call_output.output.image_url',
  'code_interpreter_call.outputs',
  'reasoning.encrypted_content',
  'message.output_text.logprobs',
];
const weather = {
  type: 'function',
  name: 'get_weather',
  description: 'Weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
  strict: false,
};
const namespace = {
  type: 'namespace',
  name: 'crm',
  description: 'CRM functions',
  tools: [{ type: 'function', name: 'find_customer', parameters: { type: 'object', properties: { email: { type: 'string' } } } }],
};
const mcpTool = (serverUrl: string) => ({
  type: 'mcp',
  server_label: 'orders',
  server_url: serverUrl,
  server_description: 'Orders',
  headers: { 'X-Tenant': 'acme' },
  authorization: 'token-1',
  allowed_tools: ['lookup_order'],
  require_approval: 'never',
});

const request = fc.record({
  upstream: fc.boolean(),
  stream: fc.boolean(),
  effort: fc.constantFrom('none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'),
  summary: fc.constantFrom('auto', 'concise', 'detailed', null),
  include: fc.subarray(INCLUDABLE),
  hosted: fc.subarray(HOSTED, { minLength: 1 }),
  toolChoice: fc.constantFrom<unknown>(
    'auto',
    'none',
    'required',
    { type: 'function', name: 'get_weather' },
    {
      type: 'allowed_tools',
      mode: 'auto',
      tools: [
        { type: 'function', name: 'get_weather' },
        { type: 'mcp', server_label: 'orders' },
      ],
    },
    { type: 'mcp', server_label: 'orders' },
    { type: 'web_search_preview' },
  ),
  serviceTier: fc.constantFrom('auto', 'default', 'flex', 'scale', 'priority'),
  truncation: fc.constantFrom('auto', 'disabled'),
  maxToolCalls: fc.integer({ min: 1, max: 8 }),
  topLogprobs: fc.integer({ min: 0, max: 20 }),
  store: fc.boolean(),
  parallel: fc.boolean(),
  previous: fc.boolean(),
});
type Case = typeof request extends fc.Arbitrary<infer T> ? T : never;

describe('a Responses request carrying every field of the reference', () => {
  let p: TestPlatform;
  let offline: ChatWorld;
  let upstreamApp: ChatWorld;
  let upstream: FakeOpenAiServer;
  let mcp: McpTestServer;
  const resolver = new FakeResolver().set(MCP_HOST, ['127.0.0.1']).set('private.test', ['10.0.0.7']);
  beforeAll(async () => {
    upstream = await startFakeOpenAiServer();
    const { caPem, key, cert } = makeCertificates();
    mcp = await startMcpTestServer({ key, cert, host: MCP_HOST });
    p = await startTestPlatform({
      visibilityDelayMs: 0,
      openAiBaseUrl: upstream.baseUrl,
      resolver,
      webhookNetwork: { allowAddresses: ['127.0.0.1'], trustedCaPem: caPem },
    });
    offline = await chatWorld(p);
    upstreamApp = await chatWorld(p);
    await patchSettings(p, upstreamApp.appId, { model: 'openai:test-model' });
  });
  afterAll(async () => {
    await p?.stop();
    await upstream?.close();
    await mcp?.close();
  });

  const upstreamReply = (stream: boolean) =>
    stream
      ? {
          kind: 'sse' as const,
          events: [
            {
              id: 'up',
              object: 'chat.completion.chunk',
              created: 1,
              model: 'test-model',
              choices: [{ index: 0, delta: { content: 'Sunny.' }, finish_reason: null }],
            },
            { id: 'up', object: 'chat.completion.chunk', created: 1, model: 'test-model', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
            {
              id: 'up',
              object: 'chat.completion.chunk',
              created: 1,
              model: 'test-model',
              choices: [],
              usage: {
                prompt_tokens: 20,
                completion_tokens: 5,
                prompt_tokens_details: { cached_tokens: 8 },
                completion_tokens_details: { reasoning_tokens: 3 },
              },
            },
          ],
        }
      : {
          kind: 'json' as const,
          body: {
            id: 'up',
            object: 'chat.completion',
            created: 1,
            model: 'test-model',
            choices: [{ index: 0, message: { role: 'assistant', content: 'Sunny.' }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 20, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 8 }, completion_tokens_details: { reasoning_tokens: 3 } },
          },
        };

  async function send(w: ChatWorld, body: Body): Promise<Body> {
    if (!body.stream) {
      const res = await p.call('POST', RESPONSES, { token: w.chatKey, body });
      expect(res.status, res.text).toBe(200);
      expectOpenResponse(res.body);
      return res.body;
    }
    const res = await fetch(`${p.baseUrl}${RESPONSES}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${w.chatKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    const events = (await res.text())
      .split('\n\n')
      .filter((e) => e.startsWith('event: '))
      .map((e) => JSON.parse(e.slice(e.indexOf('data: ') + 6)) as { type: string; response?: Body });
    for (const e of events) expectOpenResponsesEvent(e);
    const last = events.at(-1)!;
    expect(last.type, JSON.stringify(last)).toBe('response.completed');
    return last.response!;
  }

  function bodyOf(c: Case, w: ChatWorld, earlier: { id: string; itemId: string }): Body {
    return {
      model: w.appNameId,
      // A continued response's input holds only what is new (a resent history would be read as such).
      input: c.previous
        ? [
            { role: 'developer', content: 'Answer briefly.' },
            { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'opaque' },
            { role: 'user', content: 'And tomorrow?' },
          ]
        : [
            { role: 'developer', content: 'Answer briefly.' },
            { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'You are helpful.' }] },
            {
              role: 'user',
              content: [
                { type: 'input_text', text: 'What is the weather?' },
                { type: 'input_image', image_url: IMAGE, detail: 'low' },
                { type: 'input_file', filename: 'forecast.pdf', file_data: PDF },
              ],
            },
            { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Which city?', annotations: [], logprobs: [] }], status: 'completed' },
            { type: 'item_reference', id: earlier.itemId },
            { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'opaque' },
            { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
            { type: 'function_call_output', call_id: 'call_1', output: '{"sky":"clear"}' },
            { role: 'user', content: 'Thanks, and tomorrow?' },
          ],
      instructions: 'Be brief.',
      ...(c.previous ? { previous_response_id: earlier.id } : {}),
      stream: c.stream,
      ...(c.stream ? { stream_options: { include_obfuscation: false } } : {}),
      temperature: 0.5,
      top_p: 0.9,
      max_output_tokens: 512,
      tools: [weather, namespace, mcpTool(mcp.url), ...c.hosted.map((type) => ({ type }))],
      tool_choice: c.toolChoice,
      parallel_tool_calls: c.parallel,
      text: { format: { type: 'text' }, verbosity: 'low' },
      store: c.store,
      metadata: { run: 'class-test' },
      user: 'user-1',
      safety_identifier: 'safety-1',
      prompt_cache_key: 'cache-1',
      prompt_cache_retention: '24h',
      truncation: c.truncation,
      include: c.include,
      reasoning: { effort: c.effort, summary: c.summary },
      max_tool_calls: c.maxToolCalls,
      top_logprobs: c.topLogprobs,
      service_tier: c.serviceTier,
      background: false,
      client_metadata: { client: 'class-test', version: '1' },
      context_management: [{ type: 'compaction', compact_threshold: 100000 }],
    };
  }

  it('answers each generated request 200 with a valid response, and passes on what it honours', async () => {
    const first = async (w: ChatWorld) => {
      if (w === upstreamApp) upstream.reply(upstreamReply(false));
      const r = await send(w, { model: w.appNameId, input: 'Paris, please.' });
      return { id: r.id as string, itemId: (r.output as { id: string }[])[0]!.id };
    };
    const earlier = { offline: await first(offline), upstream: await first(upstreamApp) };
    const cases = fc.sample(request, { seed: 20261129, numRuns: 24 });
    for (const c of cases) {
      const w = c.upstream ? upstreamApp : offline;
      const seen = upstream.requests.length;
      if (c.upstream) upstream.reply(upstreamReply(c.stream));
      const r = await send(w, bodyOf(c, w, c.upstream ? earlier.upstream : earlier.offline));
      const effortEcho = c.effort === 'minimal' ? 'low' : c.effort === 'max' ? 'xhigh' : c.effort;
      expect(r).toMatchObject({
        reasoning: { effort: effortEcho, summary: c.summary },
        max_tool_calls: c.maxToolCalls,
        top_logprobs: c.topLogprobs,
        store: c.store,
      });
      // Only function tools are echoed, a namespace's members among them.
      for (const t of r.tools as { type: string; name: string }[]) expect(t.type).toBe('function');
      if (!c.upstream) continue;
      const sent = upstream.requests.slice(seen);
      expect(sent.length).toBeGreaterThan(0);
      expect(sent[0]!.body.reasoning_effort).toBe(c.effort);
      const offered = (sent[0]!.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name).sort();
      // The attached PDF (in the input of a response that does not continue another) brings the platform's readPDF.
      const documents = c.previous ? [] : ['readPDF'];
      if (c.toolChoice === 'none') expect(offered).toEqual(documents);
      else for (const name of offered) expect(['get_weather', 'find_customer', 'lookup_order', 'readPDF']).toContain(name);
      if (c.toolChoice === 'auto') expect(offered).toEqual(['find_customer', 'get_weather', 'lookup_order', ...documents]);
      expect(r.usage).toMatchObject({ input_tokens_details: { cached_tokens: 8 }, output_tokens_details: { reasoning_tokens: 3 } });
    }
  }, 120_000);

  it('runs at most max_tool_calls calls of the tools it runs, and refuses an mcp server at a private address', async () => {
    const call = (id: string, orderId: string) => ({ id, type: 'function', function: { name: 'lookup_order', arguments: JSON.stringify({ orderId }) } });
    upstream.reply(
      {
        kind: 'json',
        body: {
          id: 'up',
          object: 'chat.completion',
          created: 1,
          model: 'test-model',
          choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [call('c1', '1'), call('c2', '2')] }, finish_reason: 'tool_calls' }],
          usage: { prompt_tokens: 5, completion_tokens: 5 },
        },
      },
      upstreamReply(false),
    );
    const calls = mcp.toolCalls.length;
    const seen = upstream.requests.length;
    const r = await send(upstreamApp, {
      model: upstreamApp.appNameId,
      input: 'Where are orders 1 and 2?',
      tools: [mcpTool(mcp.url), weather],
      max_tool_calls: 1,
    });
    expect(r.status).toBe('completed');
    expect(mcp.toolCalls.slice(calls)).toEqual([{ name: 'lookup_order', args: { orderId: '1' } }]);
    const second = upstream.requests[seen + 1]!.body;
    expect(second.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m.content)).toEqual([
      'Order 1: shipped',
      'Not run: the request allows no more tool calls (max_tool_calls)',
    ]);
    // The budget spent, only the client's function is offered.
    expect(second.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['get_weather']);
    const mcpHeaders = mcp.requests.at(-1)!.headers;
    expect(mcpHeaders).toMatchObject({ 'x-tenant': 'acme', authorization: 'Bearer token-1' });

    for (const [url, why] of [
      ['https://private.test/mcp', 'resolves to an address that is not public'],
      [`http://${MCP_HOST}/mcp`, 'must be an https URL without credentials or fragment (not https)'],
      ['https://nowhere.test/mcp', 'names a host that does not resolve'],
    ] as const) {
      const res = await p.call('POST', RESPONSES, { token: offline.chatKey, body: { model: offline.appNameId, input: 'x', tools: [mcpTool(url)] } });
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(why);
    }
  });
});
