import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAiCompatibleChatModel } from '../../functions/chat/adapters/openai-compatible-chat-model';
import type { ModelRequest, ModelStreamEvent } from '../../functions/chat/domain/model';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../support/fake-openai-server';

const SCHEMA = { type: 'object', properties: { orderId: { type: 'string' } } };

const CONVERSATION: ModelRequest = {
  modelId: 'llama-3.1-8b',
  system: ['You are the support bot.', 'Be brief.'],
  messages: [
    { role: 'user', content: 'Where is order 42?' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_a', name: 'lookup_order', input: { orderId: '42' } }] },
    { role: 'tool', toolCallId: 'call_a', content: 'Order 42: shipped', isError: false },
    { role: 'assistant', content: 'It shipped.' },
    { role: 'user', content: 'And 43?' },
  ],
  tools: [{ name: 'lookup_order', description: 'Looks up an order', inputSchema: SCHEMA }],
  options: { temperature: 0.5, topP: 0.8, maxTokens: 256, stop: ['END'], seed: 42, presencePenalty: 0.5, frequencyPenalty: -0.5 },
};

/** The request body CONVERSATION must become (OpenAI chat-completions request syntax). */
const WIRE_BODY = {
  model: 'llama-3.1-8b',
  messages: [
    { role: 'system', content: 'You are the support bot.' },
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Where is order 42?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'lookup_order', arguments: '{"orderId":"42"}' } }] },
    { role: 'tool', tool_call_id: 'call_a', content: 'Order 42: shipped' },
    { role: 'assistant', content: 'It shipped.' },
    { role: 'user', content: 'And 43?' },
  ],
  tools: [{ type: 'function', function: { name: 'lookup_order', description: 'Looks up an order', parameters: SCHEMA } }],
  temperature: 0.5,
  top_p: 0.8,
  max_tokens: 256,
  stop: ['END'],
  seed: 42,
  presence_penalty: 0.5,
  frequency_penalty: -0.5,
};

const chunk = (delta: unknown, finish_reason: string | null = null) => ({
  id: 'chatcmpl-x',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'llama-3.1-8b',
  choices: [{ index: 0, delta, finish_reason }],
});

async function collect(events: AsyncIterable<ModelStreamEvent>) {
  const out: ModelStreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe('OpenAiCompatibleChatModel against an OpenAI-compatible server on loopback', () => {
  let server: FakeOpenAiServer;
  beforeAll(async () => {
    server = await startFakeOpenAiServer();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  const model = (apiKey?: string) => new OpenAiCompatibleChatModel({ baseUrl: `${server.baseUrl}/`, ...(apiKey ? { apiKey } : {}) });

  it('POSTs the conversation to <baseUrl>/chat/completions in the OpenAI shape, with the key as bearer token', async () => {
    server.reply({
      kind: 'json',
      body: {
        choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1 },
      },
    });
    await model('sk-local').converse(CONVERSATION);
    expect(server.requests).toHaveLength(1);
    const [sent] = server.requests;
    expect(sent!.method).toBe('POST');
    expect(sent!.url).toBe('/v1/chat/completions');
    expect(sent!.headers['content-type']).toBe('application/json');
    expect(sent!.headers.authorization).toBe('Bearer sk-local');
    expect(sent!.body).toEqual(WIRE_BODY);
  });

  it('sends no Authorization header, no tools and no options when there are none', async () => {
    server.reply({ kind: 'json', body: { choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }] } });
    await model().converse({ modelId: 'm', system: [], messages: [{ role: 'user', content: 'hi' }], tools: [], options: {} });
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(server.requests[0]!.body).toEqual({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
  });

  it('maps a non-streamed answer with tool calls and cached prompt tokens', async () => {
    server.reply({
      kind: 'json',
      body: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                { id: 'call_1', type: 'function', function: { name: 'lookup_order', arguments: '{"orderId":"43"}' } },
                { id: 'call_2', type: 'function', function: { name: 'lookup_order', arguments: 'not json' } },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150, prompt_tokens_details: { cached_tokens: 100 } },
      },
    });
    expect(await model().converse(CONVERSATION)).toEqual({
      text: '',
      toolCalls: [
        // The arguments text is kept as the model wrote it (handed to a client as is); unparsable, the input is empty.
        { id: 'call_1', name: 'lookup_order', input: { orderId: '43' }, inputText: '{"orderId":"43"}' },
        { id: 'call_2', name: 'lookup_order', input: {}, inputText: 'not json' },
      ],
      stopReason: 'tool_use',
      usage: { inputTokens: 20, outputTokens: 30, cacheReadInputTokens: 100, cacheCreationInputTokens: 0 },
    });
  });

  it('maps finish reasons', async () => {
    for (const [finish, stop] of [
      ['stop', 'end_turn'],
      ['length', 'max_tokens'],
      ['content_filter', 'content_filtered'],
    ] as const) {
      server.reply({
        kind: 'json',
        body: {
          choices: [{ index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: finish }],
          usage: { prompt_tokens: 3, completion_tokens: 1 },
        },
      });
      const r = await model().converse(CONVERSATION);
      expect([r.text, r.stopReason, r.usage.inputTokens, r.usage.outputTokens]).toEqual(['x', stop, 3, 1]);
    }
  });

  it('fails with the status when the server answers an error', async () => {
    server.reply({ kind: 'error', status: 503, body: '{"error":{"message":"overloaded"}}' });
    await expect(model().converse(CONVERSATION)).rejects.toThrow(/model endpoint answered 503: .*overloaded/);
  });

  it('streams: asks for usage, yields text deltas, assembles tool-call fragments, reads the final usage chunk', async () => {
    server.reply({
      kind: 'sse',
      events: [
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Let me ' }),
        chunk({ content: 'check.' }),
        chunk({ tool_calls: [{ index: 0, id: 'call_s1', type: 'function', function: { name: 'lookup_order', arguments: '' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"order' } }] }),
        chunk({ tool_calls: [{ index: 1, id: 'call_s2', type: 'function', function: { name: 'lookup_order', arguments: '{"orderId"' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: 'Id":"42"}' } }] }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: ':"43"}' } }] }),
        chunk({}, 'tool_calls'),
        {
          id: 'chatcmpl-x',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'llama-3.1-8b',
          choices: [],
          usage: { prompt_tokens: 40, completion_tokens: 12, prompt_tokens_details: { cached_tokens: 8 } },
        },
      ],
    });
    const events = await collect(model('sk-local').stream(CONVERSATION));
    expect(server.requests[0]!.body).toEqual({ ...WIRE_BODY, stream: true, stream_options: { include_usage: true } });
    expect(events).toEqual<ModelStreamEvent[]>([
      { type: 'text', delta: 'Let me ' },
      { type: 'text', delta: 'check.' },
      {
        type: 'done',
        response: {
          text: 'Let me check.',
          toolCalls: [
            { id: 'call_s1', name: 'lookup_order', input: { orderId: '42' }, inputText: '{"orderId":"42"}' },
            { id: 'call_s2', name: 'lookup_order', input: { orderId: '43' }, inputText: '{"orderId":"43"}' },
          ],
          stopReason: 'tool_use',
          usage: { inputTokens: 32, outputTokens: 12, cacheReadInputTokens: 8, cacheCreationInputTokens: 0 },
        },
      },
    ]);
  });

  it('streams a plain answer whatever the chunk boundaries are', async () => {
    const events = [
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'Hel' }),
      chunk({ content: 'lo ' }),
      chunk({ content: 'there' }),
      chunk({}, 'stop'),
    ];
    for (const splitAt of [1, 7, 40, 95, 200]) {
      server.reply({ kind: 'sse', events, splitAt });
      const out = await collect(model().stream(CONVERSATION));
      expect(
        out.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta),
        `split at ${splitAt}`,
      ).toEqual(['Hel', 'lo ', 'there']);
      expect(out[out.length - 1]).toEqual({
        type: 'done',
        response: {
          text: 'Hello there',
          toolCalls: [],
          stopReason: 'end_turn',
          usage: { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
        },
      });
    }
  });

  it('fails a stream when the server answers an error before streaming', async () => {
    server.reply({ kind: 'error', status: 401, body: '{"error":{"message":"bad key"}}' });
    await expect(collect(model().stream(CONVERSATION))).rejects.toThrow(/model endpoint answered 401/);
  });
});
