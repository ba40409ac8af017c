/** The OpenAI chat-completion wire shapes of area B, plus the platform's `chatSessionId`. */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { PreparedTurn } from '../app/prepare-chat-turn';
import type { TurnEvent, TurnResult } from '../app/run-chat-turn';
import type { ChatRequest } from '../domain/chat-request';
import { finishReasonOf } from '../domain/model';
import type { TurnPresenter } from './chat-turn-route';
import { drainTurn } from './turn-streams';
import type { ToolCall } from '../../conversations/domain/session';

/** OpenAI's `tool_calls` of a message, or of a stream delta (with each call's `index`). */
function wireToolCalls(calls: readonly ToolCall[], indexed: boolean) {
  return calls.map((c, index) => ({ ...(indexed ? { index } : {}), id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
}

function usageOf(result: TurnResult) {
  return {
    prompt_tokens: result.promptTokens,
    completion_tokens: result.completionTokens,
    total_tokens: result.promptTokens + result.completionTokens,
    prompt_tokens_details: { cached_tokens: result.cachedTokens },
    completion_tokens_details: { reasoning_tokens: result.reasoningTokens },
  };
}

export function chatCompletion(turn: PreparedTurn, request: ChatRequest, result: TurnResult) {
  return {
    chatSessionId: turn.session.id,
    id: turn.completionId,
    object: 'chat.completion',
    created: turn.createdUnix,
    model: request.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: result.text, ...(result.toolCalls.length ? { tool_calls: wireToolCalls(result.toolCalls, false) } : {}) },
        finish_reason: finishReasonOf(result.stopReason),
      },
    ],
    usage: usageOf(result),
  };
}

function chunk(turn: PreparedTurn, request: ChatRequest, choices: unknown[], extra: Record<string, unknown> = {}): string {
  const body = {
    id: turn.completionId,
    object: 'chat.completion.chunk',
    created: turn.createdUnix,
    model: request.model,
    choices,
    chatSessionId: turn.session.id,
    ...extra,
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/**
 * Server-Sent Events in the `chat.completion.chunk` format, ending with `data: [DONE]`. Every chunk
 * carries `chatSessionId` (the `X-Chat-Session-ID` response header has it too). A failure after the
 * first byte cannot change the status any more: it is sent as an `error` event before `[DONE]`.
 */
export async function* sseStream(turn: PreparedTurn, request: ChatRequest, run: AsyncGenerator<TurnEvent, TurnResult>, logger: Logger): AsyncIterable<string> {
  let finished = false;
  try {
    yield chunk(turn, request, [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
    let step = await run.next();
    while (!step.done) {
      yield chunk(turn, request, [{ index: 0, delta: { content: step.value.delta }, finish_reason: null }]);
      step = await run.next();
    }
    finished = true;
    for (const delta of toolCallDeltas(step.value.toolCalls)) yield chunk(turn, request, [{ index: 0, delta, finish_reason: null }]);
    yield chunk(turn, request, [{ index: 0, delta: {}, finish_reason: finishReasonOf(step.value.stopReason) }]);
    if (request.streamUsage) yield chunk(turn, request, [], { usage: usageOf(step.value) });
  } catch (err) {
    finished = true;
    logger.error('chat stream failed after the first byte', err as Error);
    yield `data: ${JSON.stringify({ error: { message: 'The model failed while streaming; retry the request', type: 'server_error' } })}\n\n`;
  } finally {
    // The client went away mid-stream: the turn still runs to its end, so it is recorded and billed.
    if (!finished) await drainTurn(run, logger);
  }
  yield 'data: [DONE]\n\n';
}

/** OpenAI's streamed tool calls: per call, a delta naming it with empty arguments, then one with the arguments. */
function toolCallDeltas(calls: readonly ToolCall[]): unknown[] {
  return calls.flatMap((c, index) => [
    { tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] },
    { tool_calls: [{ index, function: { arguments: c.arguments } }] },
  ]);
}

/** A completed answer replayed (an Idempotency-Key's stored answer) as the chunks a stream would have sent. */
export async function* replayedStream(stored: ReturnType<typeof chatCompletion>, request: ChatRequest): AsyncIterable<string> {
  const base = { id: stored.id, object: 'chat.completion.chunk', created: stored.created, model: stored.model };
  const event = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ ...base, choices, chatSessionId: stored.chatSessionId, ...extra })}\n\n`;
  const choice = stored.choices[0]!;
  yield event([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
  if (choice.message.content) yield event([{ index: 0, delta: { content: choice.message.content }, finish_reason: null }]);
  const calls = (choice.message.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
  for (const delta of toolCallDeltas(calls)) yield event([{ index: 0, delta, finish_reason: null }]);
  yield event([{ index: 0, delta: {}, finish_reason: choice.finish_reason }]);
  if (request.streamUsage) yield event([], { usage: stored.usage });
  yield 'data: [DONE]\n\n';
}

/** The chat-completion wire shapes of one request, for the shared turn route. */
export function chatCompletionPresenter(request: ChatRequest): TurnPresenter<ReturnType<typeof chatCompletion>> {
  return {
    answer: (turn, result) => chatCompletion(turn, request, result),
    stream: (turn, run, logger) => sseStream(turn, request, run, logger),
    replayStream: (stored) => replayedStream(stored, request),
    sessionOf: (stored) => stored.chatSessionId,
  };
}
