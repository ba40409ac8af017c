/** The model adapter imported on first use: loaded once, on the first call; a failed load is tried again. */
import { describe, expect, it } from 'vitest';
import { LazyChatModel } from '../../functions/chat/adapters/lazy-chat-model';
import type { ChatModel } from '../../functions/chat/app/chat-ports';
import type { ModelRequest, ModelResponse, ModelStreamEvent } from '../../functions/chat/domain/model';

const REQUEST: ModelRequest = { modelId: 'm', system: [], messages: [{ role: 'user', content: 'hi' }], tools: [], options: {} };
const RESPONSE: ModelResponse = {
  text: 'hello',
  toolCalls: [],
  stopReason: 'end_turn',
  usage: { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
};

const model: ChatModel = {
  converse: async () => RESPONSE,
  async *stream() {
    yield { type: 'text', delta: 'hel' };
    yield { type: 'text', delta: 'lo' };
    yield { type: 'done', response: RESPONSE };
  },
};

async function events(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

describe('LazyChatModel', () => {
  it('loads nothing until the first call, then loads once for every call', async () => {
    let loads = 0;
    const lazy = new LazyChatModel(async () => {
      loads++;
      return model;
    });
    expect(loads).toBe(0);
    expect(await Promise.all([lazy.converse(REQUEST), lazy.converse(REQUEST)])).toEqual([RESPONSE, RESPONSE]);
    expect(await events(lazy.stream(REQUEST))).toEqual(await events(model.stream(REQUEST)));
    expect(loads).toBe(1);
  });

  it('fails the call whose load failed, and loads again on the next one', async () => {
    let loads = 0;
    const lazy = new LazyChatModel(async () => {
      if (++loads === 1) throw new Error('import failed');
      return model;
    });
    await expect(lazy.converse(REQUEST)).rejects.toThrow('import failed');
    expect(await lazy.converse(REQUEST)).toEqual(RESPONSE);
    expect(loads).toBe(2);
  });
});
