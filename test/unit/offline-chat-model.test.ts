import { describe, expect, it } from 'vitest';
import { OfflineChatModel } from '../../functions/chat/adapters/offline-chat-model';
import type { ModelMessage, ModelRequest, ModelResponse, ModelStreamEvent, ModelToolSpec } from '../../functions/chat/domain/model';

const LOOKUP: ModelToolSpec = {
  name: 'lookup_order',
  description: 'Looks up an order',
  inputSchema: { type: 'object', properties: { orderId: { type: 'string' } } },
};
const model = new OfflineChatModel();

function request(messages: ModelMessage[], over: Partial<ModelRequest> = {}): ModelRequest {
  return { modelId: 'offline', system: [], messages, tools: [], options: {}, ...over };
}

const user = (content: string): ModelMessage => ({ role: 'user', content });
const tokens = (text: string) => Math.ceil(text.length / 4);

async function collect(events: AsyncIterable<ModelStreamEvent>) {
  const deltas: string[] = [];
  let done: ModelResponse | undefined;
  let afterDone = 0;
  for await (const e of events) {
    if (done) afterDone++;
    if (e.type === 'text') deltas.push(e.delta);
    else done = e.response;
  }
  return { deltas, done: done!, afterDone };
}

describe('OfflineChatModel', () => {
  it('answers "Offline reply #<n>: <last user message>", n being the number of user messages it was given', async () => {
    const r = await model.converse(request([user('first'), { role: 'assistant', content: 'Offline reply #1: first' }, user('second')]));
    expect(r).toEqual({
      text: 'Offline reply #2: second',
      toolCalls: [],
      stopReason: 'end_turn',
      usage: {
        inputTokens: tokens('first\nOffline reply #1: first\nsecond[]'),
        outputTokens: tokens('Offline reply #2: second'),
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 0,
      },
    });
  });

  it('counts the system prompt and the offered tools in the input tokens (ceil(characters / 4))', async () => {
    const r = await model.converse(request([user('hi')], { system: ['Be brief.'], tools: [LOOKUP] }));
    expect(r.usage.inputTokens).toBe(tokens(`Be brief.hi${JSON.stringify([LOOKUP])}`));
  });

  it('is deterministic', async () => {
    const req = request([user('same')], { tools: [LOOKUP] });
    expect(await model.converse(req)).toEqual(await model.converse(req));
  });

  it('calls an offered tool when told to "use <tool>", with the first JSON object of the message as input', async () => {
    const r = await model.converse(
      request([user('hello'), { role: 'assistant', content: 'x' }, user('please use lookup_order {"orderId":"42","opts":{"deep":true}} now')], {
        tools: [LOOKUP],
      }),
    );
    const call = { id: 'call_offline_2_lookup_order', name: 'lookup_order', input: { orderId: '42', opts: { deep: true } } };
    expect(r).toEqual({
      text: '',
      toolCalls: [call],
      stopReason: 'tool_use',
      usage: { inputTokens: r.usage.inputTokens, outputTokens: tokens(JSON.stringify(call)), cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
    });
  });

  it('also understands "call <tool>", "use the tool <tool>" and any letter case, with {} when there is no JSON', async () => {
    for (const said of ['call lookup_order', 'Use the tool LOOKUP_ORDER', 'CALL the lookup_order please', 'use tool lookup_order {not json}']) {
      const r = await model.converse(request([user(said)], { tools: [LOOKUP] }));
      expect(r.toolCalls, said).toEqual([{ id: 'call_offline_1_lookup_order', name: 'lookup_order', input: {} }]);
      expect(r.stopReason).toBe('tool_use');
    }
  });

  it('does not call a tool it was not offered', async () => {
    const r = await model.converse(request([user('use delete_everything {"all":true}')], { tools: [LOOKUP] }));
    expect(r.toolCalls).toEqual([]);
    expect(r.text).toBe('Offline reply #1: use delete_everything {"all":true}');
    const none = await model.converse(request([user('use lookup_order')]));
    expect(none.toolCalls).toEqual([]);
  });

  it('answers with what the tools returned once the last messages are tool results', async () => {
    const r = await model.converse(
      request(
        [
          user('use lookup_order {"orderId":"42"}'),
          { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'lookup_order', input: { orderId: '42' } }] },
          { role: 'tool', toolCallId: 'c1', content: 'Order 42: shipped', isError: false },
          { role: 'tool', toolCallId: 'c2', content: 'Order 43: failed', isError: true },
        ],
        { tools: [LOOKUP] },
      ),
    );
    expect(r.text).toBe('Tool result: Order 42: shipped\nOrder 43: failed');
    expect(r.toolCalls).toEqual([]);
    expect(r.stopReason).toBe('end_turn');
  });

  it('stops at a stop sequence and at maxTokens, with the matching stop reason', async () => {
    const stopped = await model.converse(request([user('alpha STOP beta')], { options: { stop: ['STOP'] } }));
    expect([stopped.text, stopped.stopReason]).toEqual(['Offline reply #1: alpha ', 'stop_sequence']);
    expect(stopped.usage.outputTokens).toBe(tokens('Offline reply #1: alpha '));
    const cut = await model.converse(request([user('a long message that will not fit')], { options: { maxTokens: 2 } }));
    expect([cut.text, cut.stopReason, cut.usage.outputTokens]).toEqual(['Offline ', 'max_tokens', 2]);
  });

  it('streams the same answer as text deltas, then one done event with the complete response', async () => {
    const req = request([user('stream this please')]);
    const { deltas, done, afterDone } = await collect(model.stream(req));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Offline reply #1: stream this please');
    expect(done).toEqual(await model.converse(req));
    expect(afterDone).toBe(0);
  });

  it('streams a tool call as a done event with no text', async () => {
    const { deltas, done } = await collect(model.stream(request([user('use lookup_order {"orderId":"7"}')], { tools: [LOOKUP] })));
    expect(deltas).toEqual([]);
    expect(done.toolCalls).toEqual([{ id: 'call_offline_1_lookup_order', name: 'lookup_order', input: { orderId: '7' } }]);
  });
});
