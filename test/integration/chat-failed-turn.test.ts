/**
 * Model calls are paid for when they are made: a turn that fails after some of its model calls
 * completed still records their usage rows and charge (but no messages); and a streamed turn whose
 * client goes away still runs to its end and is recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateChatKey } from '../../functions/tenancy/app/admit-request';
import { prepareChatTurn } from '../../functions/chat/app/prepare-chat-turn';
import { runChatTurn } from '../../functions/chat/app/run-chat-turn';
import { parseChatRequest } from '../../functions/chat/domain/chat-request';
import type { ModelRequest, ModelResponse, ModelStreamEvent } from '../../functions/chat/domain/model';
import type { ChatModel } from '../../functions/chat/app/chat-ports';
import { sseStream } from '../../functions/chat/http/chat-presenters';
import { chatWorld, type ChatWorld } from '../support/chat';
import { startTestPlatform, type TestPlatform } from '../support/platform';

const USAGE = { inputTokens: 100, outputTokens: 50, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };

/** Answers the first call with a tool call, fails the second. */
class FailsOnSecondCall implements ChatModel {
  calls = 0;
  async converse(_request: ModelRequest): Promise<ModelResponse> {
    this.calls++;
    if (this.calls > 1) throw new Error('model endpoint went away');
    return { text: 'Let me look.', toolCalls: [{ id: 'call_1', name: 'lookup', input: {} }], stopReason: 'tool_use', usage: USAGE };
  }
  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    yield { type: 'done', response: await this.converse(request) };
  }
}

describe('chat turn accounting', () => {
  let p: TestPlatform;
  let w: ChatWorld;
  beforeAll(async () => {
    p = await startTestPlatform({ visibilityDelayMs: 0 });
    w = await chatWorld(p);
  });
  afterAll(() => p.stop());

  async function prepared(content: string, stream: boolean) {
    const principal = await authenticateChatKey(p.deps, { authorization: `Bearer ${w.chatKey}` });
    const request = parseChatRequest({ model: w.appNameId, messages: [{ role: 'user', content }], stream }, w.appNameId);
    const turn = await prepareChatTurn(p.deps, { principal, request });
    return { principal, request, turn };
  }

  it('records the usage of the model calls made before a failure, and no messages', async () => {
    const { principal, request, turn } = await prepared('use lookup', false);
    const model = new FailsOnSecondCall();
    const run = runChatTurn(p.deps, { ...turn, model }, { principal, request });
    await expect(run.next()).rejects.toThrow('model endpoint went away');
    expect(model.calls).toBe(2);
    const usage = await p.call('GET', '/api/v1/org/usage', { token: w.orgKey });
    const rows = usage.body.data.filter((u: { session_id: string }) => u.session_id === turn.session.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ input_tokens: 100, output_tokens: 50 });
    expect(await p.deps.sessions.listMessages(turn.session.id)).toEqual([]);
  });

  it('finishes and records a streamed turn whose client disconnected after the first chunk', async () => {
    const { principal, request, turn } = await prepared('Hello while leaving', true);
    const stream = sseStream(turn, request, runChatTurn(p.deps, turn, { principal, request }), p.deps.logger)[Symbol.asyncIterator]();
    expect((await stream.next()).done).toBe(false);
    // What the HTTP layer does when the socket closes: stop iterating.
    await stream.return?.(undefined);
    const messages = await p.deps.sessions.listMessages(turn.session.id);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(messages[1]!.content).toContain('Hello while leaving');
  });
});
