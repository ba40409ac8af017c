import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand, type ConverseStreamOutput } from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { BedrockChatModel, stopReasonOf } from '../../functions/chat/adapters/bedrock-chat-model';
import type { ModelRequest, ModelResponse, ModelStreamEvent } from '../../functions/chat/domain/model';

const MODEL_ID = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const SCHEMA = { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] };

const bedrock = mockClient(BedrockRuntimeClient);
afterEach(() => bedrock.reset());

function adapter() {
  return new BedrockChatModel(new BedrockRuntimeClient({ region: 'eu-west-1' }));
}

/** A whole conversation: system prompts, a tool, an image, two tool calls and their results, options. */
const CONVERSATION: ModelRequest = {
  modelId: MODEL_ID,
  system: ['You are the support bot of Acme.', 'Answer in one sentence.'],
  messages: [
    { role: 'user', content: 'What is in this picture?', images: [{ format: 'png', bytes: PNG }] },
    { role: 'assistant', content: 'A parcel.' },
    { role: 'user', content: 'Where are orders 42 and 43?' },
    {
      role: 'assistant',
      content: 'Let me check.',
      toolCalls: [
        { id: 'tooluse_1', name: 'lookup_order', input: { orderId: '42' } },
        { id: 'tooluse_2', name: 'lookup_order', input: { orderId: '43' } },
      ],
    },
    { role: 'tool', toolCallId: 'tooluse_1', content: 'Order 42: shipped', isError: false },
    { role: 'tool', toolCallId: 'tooluse_2', content: 'No such order', isError: true },
  ],
  tools: [{ name: 'lookup_order', description: 'Looks up an order by id', inputSchema: SCHEMA }],
  options: { maxTokens: 512, temperature: 0.3, topP: 0.9, stop: ['\n\nHuman:'] },
};

/** The ConverseCommand input CONVERSATION must become (Converse API request syntax). */
const CONVERSATION_INPUT = {
  modelId: MODEL_ID,
  messages: [
    { role: 'user', content: [{ image: { format: 'png', source: { bytes: PNG } } }, { text: 'What is in this picture?' }] },
    { role: 'assistant', content: [{ text: 'A parcel.' }] },
    { role: 'user', content: [{ text: 'Where are orders 42 and 43?' }] },
    {
      role: 'assistant',
      content: [
        { text: 'Let me check.' },
        { toolUse: { toolUseId: 'tooluse_1', name: 'lookup_order', input: { orderId: '42' } } },
        { toolUse: { toolUseId: 'tooluse_2', name: 'lookup_order', input: { orderId: '43' } } },
      ],
    },
    // Both results in one user message: Converse wants strictly alternating roles.
    {
      role: 'user',
      content: [
        { toolResult: { toolUseId: 'tooluse_1', content: [{ text: 'Order 42: shipped' }], status: 'success' } },
        { toolResult: { toolUseId: 'tooluse_2', content: [{ text: 'No such order' }], status: 'error' } },
      ],
    },
  ],
  system: [{ text: 'You are the support bot of Acme.' }, { text: 'Answer in one sentence.' }],
  inferenceConfig: { maxTokens: 512, temperature: 0.3, topP: 0.9, stopSequences: ['\n\nHuman:'] },
  toolConfig: { tools: [{ toolSpec: { name: 'lookup_order', description: 'Looks up an order by id', inputSchema: { json: SCHEMA } } }] },
};

/** A Converse response as documented: output.message.content with text and toolUse blocks. */
const CONVERSE_RESPONSE = {
  output: {
    message: {
      role: 'assistant' as const,
      content: [{ text: 'Checking ' }, { text: 'both.' }, { toolUse: { toolUseId: 'tooluse_9', name: 'lookup_order', input: { orderId: '44' } } }],
    },
  },
  stopReason: 'tool_use' as const,
  usage: { inputTokens: 1200, outputTokens: 85, totalTokens: 2485, cacheReadInputTokens: 1000, cacheWriteInputTokens: 200 },
  metrics: { latencyMs: 830 },
};

async function collect(events: AsyncIterable<ModelStreamEvent>) {
  const out: ModelStreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

async function* streamOf(events: ConverseStreamOutput[], failWith?: Error): AsyncGenerator<ConverseStreamOutput> {
  for (const e of events) yield e;
  if (failWith) throw failWith;
}

describe('BedrockChatModel.converse', () => {
  it('sends the exact ConverseCommand input for a conversation with system prompts, tools, an image, tool calls and results, and options', async () => {
    bedrock.on(ConverseCommand).resolves(CONVERSE_RESPONSE);
    await adapter().converse(CONVERSATION);
    const calls = bedrock.commandCalls(ConverseCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual(CONVERSATION_INPUT);
  });

  it('omits system, inferenceConfig and toolConfig when there are none, and sends earlier tool calls and results as text then', async () => {
    bedrock.on(ConverseCommand).resolves(CONVERSE_RESPONSE);
    await adapter().converse({
      modelId: MODEL_ID,
      system: [],
      messages: [
        { role: 'user', content: 'use lookup_order' },
        { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'lookup_order', input: {} }] },
        { role: 'tool', toolCallId: 't1', content: 'ok', isError: false },
        { role: 'user', content: 'thanks' },
      ],
      tools: [],
      options: {},
    });
    expect(bedrock.commandCalls(ConverseCommand)[0]!.args[0].input).toEqual({
      modelId: MODEL_ID,
      messages: [
        { role: 'user', content: [{ text: 'use lookup_order' }] },
        // Converse takes tool blocks only beside a tool configuration: without tools they are text.
        { role: 'assistant', content: [{ text: '[called tool lookup_order (t1) with {}]' }] },
        { role: 'user', content: [{ text: '[result of tool call t1]\nok' }, { text: 'thanks' }] },
      ],
    });
  });

  it('maps tool_choice to Converse toolChoice (required is any, a named tool is tool) and asks for a structured answer in the system prompt', async () => {
    bedrock.on(ConverseCommand).resolves(CONVERSE_RESPONSE);
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
    await adapter().converse({ ...CONVERSATION, toolChoice: { type: 'required' } });
    await adapter().converse({ ...CONVERSATION, toolChoice: { type: 'tool', name: 'lookup_order' } });
    await adapter().converse({ ...CONVERSATION, toolChoice: { type: 'auto' }, responseFormat: { type: 'json_schema', name: 'answer', schema, strict: true } });
    const inputs = bedrock.commandCalls(ConverseCommand).map((c) => c.args[0].input);
    expect(inputs[0]!.toolConfig).toEqual({ ...CONVERSATION_INPUT.toolConfig, toolChoice: { any: {} } });
    expect(inputs[1]!.toolConfig).toEqual({ ...CONVERSATION_INPUT.toolConfig, toolChoice: { tool: { name: 'lookup_order' } } });
    expect(inputs[2]!.toolConfig).toEqual(CONVERSATION_INPUT.toolConfig);
    // Converse refuses an empty description: a tool without one (a client's, say) is sent without.
    await adapter().converse({ ...CONVERSATION, tools: [{ name: 'get_weather', description: '', inputSchema: SCHEMA }] });
    expect(bedrock.commandCalls(ConverseCommand)[3]!.args[0].input.toolConfig).toEqual({
      tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: SCHEMA } } }],
    });
    expect(inputs[2]!.system).toEqual([
      ...CONVERSATION_INPUT.system,
      { text: `Answer with one JSON value valid against this JSON Schema ("answer") and nothing else: no prose, no code fence.\n${JSON.stringify(schema)}` },
    ]);
  });

  it("maps the documented response shape to the port's ModelResponse", async () => {
    bedrock.on(ConverseCommand).resolves(CONVERSE_RESPONSE);
    const r = await adapter().converse(CONVERSATION);
    expect(r).toEqual<ModelResponse>({
      text: 'Checking both.',
      toolCalls: [{ id: 'tooluse_9', name: 'lookup_order', input: { orderId: '44' } }],
      stopReason: 'tool_use',
      usage: { inputTokens: 1200, outputTokens: 85, cacheReadInputTokens: 1000, cacheCreationInputTokens: 200 },
    });
  });

  it('maps a plain answer without cache counts', async () => {
    bedrock.on(ConverseCommand).resolves({
      output: { message: { role: 'assistant', content: [{ text: 'Hello.' }] } },
      stopReason: 'end_turn',
      usage: { inputTokens: 10, outputTokens: 3, totalTokens: 13 },
      metrics: { latencyMs: 100 },
    });
    expect(await adapter().converse(CONVERSATION)).toEqual({
      text: 'Hello.',
      toolCalls: [],
      stopReason: 'end_turn',
      usage: { inputTokens: 10, outputTokens: 3, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
    });
  });

  it('passes a service error on', async () => {
    bedrock.on(ConverseCommand).rejects(Object.assign(new Error('Too many requests'), { name: 'ThrottlingException' }));
    await expect(adapter().converse(CONVERSATION)).rejects.toThrow('Too many requests');
  });
});

describe('stopReasonOf', () => {
  it('maps every Converse stop reason', () => {
    expect(stopReasonOf('end_turn')).toBe('end_turn');
    expect(stopReasonOf('tool_use')).toBe('tool_use');
    expect(stopReasonOf('max_tokens')).toBe('max_tokens');
    expect(stopReasonOf('stop_sequence')).toBe('stop_sequence');
    expect(stopReasonOf('guardrail_intervened')).toBe('content_filtered');
    expect(stopReasonOf('content_filtered')).toBe('content_filtered');
    expect(stopReasonOf(undefined)).toBe('end_turn');
  });
});

describe('BedrockChatModel.stream', () => {
  /** The documented ConverseStream event sequence: a text block, then a tool-use block sent in fragments. */
  const EVENTS: ConverseStreamOutput[] = [
    { messageStart: { role: 'assistant' } },
    { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'Let me ' } } },
    { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'check.' } } },
    { contentBlockStop: { contentBlockIndex: 0 } },
    { contentBlockStart: { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'tooluse_s1', name: 'lookup_order' } } } },
    { contentBlockDelta: { contentBlockIndex: 1, delta: { toolUse: { input: '{"order' } } } },
    { contentBlockDelta: { contentBlockIndex: 1, delta: { toolUse: { input: 'Id": "42"}' } } } },
    { contentBlockStop: { contentBlockIndex: 1 } },
    { contentBlockStart: { contentBlockIndex: 2, start: { toolUse: { toolUseId: 'tooluse_s2', name: 'lookup_order' } } } },
    { contentBlockStop: { contentBlockIndex: 2 } },
    { messageStop: { stopReason: 'tool_use' } },
    {
      metadata: {
        usage: { inputTokens: 50, outputTokens: 20, totalTokens: 70, cacheReadInputTokens: 5, cacheWriteInputTokens: 7 },
        metrics: { latencyMs: 400 },
      },
    },
  ];

  it('sends the same input as ConverseStreamCommand', async () => {
    bedrock.on(ConverseStreamCommand).resolves({ stream: streamOf(EVENTS) });
    await collect(adapter().stream(CONVERSATION));
    expect(bedrock.commandCalls(ConverseCommand)).toHaveLength(0);
    expect(bedrock.commandCalls(ConverseStreamCommand)[0]!.args[0].input).toEqual(CONVERSATION_INPUT);
  });

  it('yields the text deltas as they come, then the done response with the assembled tool calls, stop reason and usage', async () => {
    bedrock.on(ConverseStreamCommand).resolves({ stream: streamOf(EVENTS) });
    expect(await collect(adapter().stream(CONVERSATION))).toEqual<ModelStreamEvent[]>([
      { type: 'text', delta: 'Let me ' },
      { type: 'text', delta: 'check.' },
      {
        type: 'done',
        response: {
          text: 'Let me check.',
          toolCalls: [
            { id: 'tooluse_s1', name: 'lookup_order', input: { orderId: '42' }, inputText: '{"orderId": "42"}' },
            { id: 'tooluse_s2', name: 'lookup_order', input: {} },
          ],
          stopReason: 'tool_use',
          usage: { inputTokens: 50, outputTokens: 20, cacheReadInputTokens: 5, cacheCreationInputTokens: 7 },
        },
      },
    ]);
  });

  it('fails on an exception event in the stream, after the text it already yielded', async () => {
    for (const failure of [
      { modelStreamErrorException: { message: 'model crashed', originalStatusCode: 500, originalMessage: 'x' } },
      { internalServerException: { message: 'model crashed' } },
      { throttlingException: { message: 'model crashed' } },
      { validationException: { message: 'model crashed' } },
      { serviceUnavailableException: { message: 'model crashed' } },
    ] as ConverseStreamOutput[]) {
      bedrock.reset();
      bedrock.on(ConverseStreamCommand).resolves({ stream: streamOf([EVENTS[0]!, EVENTS[1]!, failure, EVENTS[10]!]) });
      const seen: ModelStreamEvent[] = [];
      await expect(
        (async () => {
          for await (const e of adapter().stream(CONVERSATION)) seen.push(e);
        })(),
      ).rejects.toThrow('Bedrock stream failed: model crashed');
      expect(seen, Object.keys(failure)[0]).toEqual([{ type: 'text', delta: 'Let me ' }]);
    }
  });

  it('fails when the event stream itself throws (the SDK raises exception events that way)', async () => {
    bedrock
      .on(ConverseStreamCommand)
      .resolves({ stream: streamOf(EVENTS.slice(0, 2), Object.assign(new Error('stream broke'), { name: 'ModelStreamErrorException' })) });
    await expect(collect(adapter().stream(CONVERSATION))).rejects.toThrow('stream broke');
  });
});
