/**
 * The Responses API wire shapes (OpenAI's `response` object and its semantic stream events), plus the
 * platform's `chatSessionId`, for a chat turn run from a Responses request.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Clock } from '../../kernel/app/kernel-ports';
import type { ResponseStore } from '../app/chat-ports';
import { microsToMs } from '../../kernel/domain/time';
import type { PreparedTurn } from '../app/prepare-chat-turn';
import type { TurnEvent, TurnResult } from '../app/run-chat-turn';
import type { ResponsesRequest } from '../domain/responses-request';
import { functionCallItemId, messageItemId, responseId } from '../domain/response-ids';
import type { StopReason } from '../domain/model';
import type { ClientTool } from '../domain/client-tools';
import type { ReasoningEffort } from '../domain/responses-options';
import { drainTurn, type TurnPresenter } from './chat-turn-route';

type Status = 'in_progress' | 'completed' | 'incomplete' | 'failed';

interface OutputText {
  readonly type: 'output_text';
  readonly text: string;
  readonly annotations: readonly never[];
  readonly logprobs: readonly never[];
}
type OutputItem =
  | { readonly type: 'message'; readonly id: string; readonly status: Status; readonly role: 'assistant'; readonly content: readonly OutputText[] }
  | {
      readonly type: 'function_call';
      readonly id: string;
      readonly status: Status;
      readonly call_id: string;
      readonly name: string;
      readonly arguments: string;
    };

export type ResponseObject = ReturnType<typeof responseObject>;

const outputText = (text: string): OutputText => ({ type: 'output_text', text, annotations: [], logprobs: [] });

function incompleteReason(stop: StopReason): string | undefined {
  if (stop === 'max_tokens') return 'max_output_tokens';
  if (stop === 'content_filtered') return 'content_filter';
  return undefined;
}

/** The answer's output items: its text (when there is any, or no call), then each function call. */
function outputOf(turn: PreparedTurn, result: TurnResult): OutputItem[] {
  const ref = { sessionId: turn.session.id, messageId: turn.answerId };
  const message: OutputItem[] =
    result.text || result.toolCalls.length === 0
      ? [{ type: 'message', id: messageItemId(ref), status: 'completed', role: 'assistant', content: [outputText(result.text)] }]
      : [];
  const calls: OutputItem[] = result.toolCalls.map((c, i) => ({
    type: 'function_call',
    id: functionCallItemId(ref, i),
    status: 'completed',
    call_id: c.id,
    name: c.name,
    arguments: c.arguments,
  }));
  return [...message, ...calls];
}

/** A function tool as the response echoes it: every field present, `strict` false unless asked (as OpenAI does). */
function toolEcho(t: ClientTool) {
  return { type: 'function' as const, name: t.name, description: t.description || null, parameters: t.parameters, strict: t.strict ?? false };
}

/** The effort as the Open Responses document names it: `minimal` (passed on as given) is its `low`, `max` its `xhigh`. */
function effortEcho(effort: ReasoningEffort | null) {
  if (effort === 'minimal') return 'low';
  return effort === 'max' ? 'xhigh' : effort;
}

/**
 * `text` as the response echoes it. A json_schema format is echoed without its schema (null, as the
 * Open Responses document requires) but with every other field present.
 */
function textEcho(text: unknown) {
  const format = (text as { format: { type: string; name?: string; description?: string | null; strict?: boolean | null } }).format;
  if (format.type !== 'json_schema') return { format: { type: format.type } };
  return { format: { type: 'json_schema', name: format.name, description: format.description ?? null, schema: null, strict: format.strict ?? false } };
}

function responseObject(
  turn: PreparedTurn,
  parsed: ResponsesRequest,
  state: { status: Status; result?: TurnResult; error?: { code: string; message: string }; completedAt?: number },
) {
  const { echo } = parsed;
  const result = state.result;
  const reason = result ? incompleteReason(result.stopReason) : undefined;
  return {
    id: responseId({ sessionId: turn.session.id, messageId: turn.answerId }),
    object: 'response' as const,
    created_at: turn.createdUnix,
    completed_at: state.status === 'completed' && !reason ? (state.completedAt ?? null) : null,
    status: state.status === 'completed' && reason ? ('incomplete' as const) : state.status,
    error: state.error ?? null,
    incomplete_details: state.status === 'completed' && reason ? { reason } : null,
    instructions: echo.instructions,
    max_output_tokens: echo.maxOutputTokens,
    model: parsed.turn.model,
    output: result ? outputOf(turn, result) : [],
    parallel_tool_calls: echo.parallelToolCalls,
    previous_response_id: echo.previousResponseId,
    reasoning: { effort: effortEcho(echo.reasoning.effort), summary: echo.reasoning.summary },
    store: echo.store,
    // The platform's defaults where the request set nothing: a strict client needs a number.
    temperature: echo.temperature ?? 1,
    text: textEcho(echo.text),
    tool_choice: echo.toolChoice,
    tools: echo.tools.map(toolEcho),
    top_p: echo.topP ?? 1,
    presence_penalty: 0,
    frequency_penalty: 0,
    top_logprobs: echo.topLogprobs,
    max_tool_calls: echo.maxToolCalls,
    background: false,
    service_tier: 'default',
    safety_identifier: echo.safetyIdentifier,
    prompt_cache_key: echo.promptCacheKey,
    truncation: 'disabled',
    usage: result
      ? {
          input_tokens: result.promptTokens,
          input_tokens_details: { cached_tokens: result.cachedTokens },
          output_tokens: result.completionTokens,
          output_tokens_details: { reasoning_tokens: result.reasoningTokens },
          total_tokens: result.promptTokens + result.completionTokens,
        }
      : null,
    metadata: echo.metadata,
    conversation: parsed.conversationId !== undefined ? { id: parsed.conversationId } : null,
    chatSessionId: turn.session.id,
  };
}

const unixNow = (clock: Clock) => Math.floor(microsToMs(clock.nowUs()) / 1000);

/**
 * Server-Sent Events with an `event:` line and a `sequence_number`, as OpenAI sends them. Events up to
 * `skipThrough` are counted and not written (a resumed stream).
 */
function eventWriter(skipThrough = -1) {
  let sequence = 0;
  return (type: string, body: Record<string, unknown>) => {
    const n = sequence++;
    return n <= skipThrough ? '' : `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: n, ...body })}\n\n`;
  };
}

/**
 * The semantic events of a streamed response: `response.created`, the message item with its
 * `response.output_text.delta`s, each function call with its arguments, then `response.completed`
 * (or `response.incomplete`). A failure after the first byte is `response.failed`.
 */
async function* responseStream(
  turn: PreparedTurn,
  parsed: ResponsesRequest,
  run: AsyncGenerator<TurnEvent, TurnResult>,
  logger: Logger,
  clock: Clock,
): AsyncIterable<string> {
  const event = eventWriter();
  const ref = { sessionId: turn.session.id, messageId: turn.answerId };
  const itemId = messageItemId(ref);
  let finished = false;
  let text = '';
  let opened = false;
  const open = function* () {
    opened = true;
    const item = { type: 'message', id: itemId, status: 'in_progress', role: 'assistant', content: [] };
    yield event('response.output_item.added', { output_index: 0, item });
    yield event('response.content_part.added', { item_id: itemId, output_index: 0, content_index: 0, part: outputText('') });
  };
  try {
    yield event('response.created', { response: responseObject(turn, parsed, { status: 'in_progress' }) });
    yield event('response.in_progress', { response: responseObject(turn, parsed, { status: 'in_progress' }) });
    let step = await run.next();
    while (!step.done) {
      if (!opened) yield* open();
      text += step.value.delta;
      yield event('response.output_text.delta', { item_id: itemId, output_index: 0, content_index: 0, delta: step.value.delta, logprobs: [] });
      step = await run.next();
    }
    finished = true;
    const result = step.value;
    const output = outputOf(turn, result);
    if (!opened && output[0]?.type === 'message') yield* open();
    let index = 0;
    if (opened) {
      yield event('response.output_text.done', { item_id: itemId, output_index: 0, content_index: 0, text, logprobs: [] });
      yield event('response.content_part.done', { item_id: itemId, output_index: 0, content_index: 0, part: outputText(text) });
      yield event('response.output_item.done', { output_index: 0, item: output[0] });
      index = 1;
    }
    for (const item of output.slice(index)) {
      if (item.type !== 'function_call') continue;
      yield event('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', arguments: '' } });
      yield event('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta: item.arguments });
      yield event('response.function_call_arguments.done', { item_id: item.id, output_index: index, name: item.name, arguments: item.arguments });
      yield event('response.output_item.done', { output_index: index, item });
      index++;
    }
    const done = responseObject(turn, parsed, { status: 'completed', result, completedAt: unixNow(clock) });
    yield event(done.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: done });
  } catch (err) {
    finished = true;
    logger.error('responses stream failed after the first byte', err as Error);
    const error = { code: 'server_error', message: 'The model failed while streaming; retry the request' };
    yield event('response.failed', { response: responseObject(turn, parsed, { status: 'failed', error }) });
  } finally {
    if (!finished) await drainTurn(run, logger);
  }
}

/**
 * A completed response sent again as the events of its stream (an Idempotency-Key's stored answer, or
 * `GET /responses/{id}?stream=true`), one text delta per message: from after `startingAfter` when given.
 */
export async function* replayedResponseStream(stored: ResponseObject, startingAfter = -1): AsyncIterable<string> {
  for (const piece of replayedEvents(stored, eventWriter(startingAfter))) if (piece) yield piece;
}

function* replayedEvents(stored: ResponseObject, event: ReturnType<typeof eventWriter>): Iterable<string> {
  const started = { ...stored, status: 'in_progress', completed_at: null, output: [], usage: null, incomplete_details: null };
  yield event('response.created', { response: started });
  yield event('response.in_progress', { response: started });
  for (const [index, item] of stored.output.entries()) {
    if (item.type === 'message') {
      const text = item.content[0]?.text ?? '';
      yield event('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', content: [] } });
      yield event('response.content_part.added', { item_id: item.id, output_index: index, content_index: 0, part: outputText('') });
      if (text) yield event('response.output_text.delta', { item_id: item.id, output_index: index, content_index: 0, delta: text, logprobs: [] });
      yield event('response.output_text.done', { item_id: item.id, output_index: index, content_index: 0, text, logprobs: [] });
      yield event('response.content_part.done', { item_id: item.id, output_index: index, content_index: 0, part: outputText(text) });
    } else {
      yield event('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', arguments: '' } });
      yield event('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta: item.arguments });
      yield event('response.function_call_arguments.done', { item_id: item.id, output_index: index, name: item.name, arguments: item.arguments });
    }
    yield event('response.output_item.done', { output_index: index, item });
  }
  yield event(stored.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: stored });
}

/**
 * The Responses wire shapes of a turn. `keep` (the request's `store`, and an app that retains data):
 * the completed response is stored for `GET /responses/{id}`. A failure to store it is logged and not
 * the client's: the turn is recorded and billed, and its session goes on with `previous_response_id`.
 */
export function responsePresenter(
  parsed: ResponsesRequest,
  deps: { readonly clock: Clock; readonly responses: ResponseStore; readonly logger: Logger },
  keep: { readonly store: boolean; readonly appId: string },
): TurnPresenter<ResponseObject> {
  const { clock } = deps;
  return {
    answer: (turn, result) => responseObject(turn, parsed, { status: 'completed', result, completedAt: unixNow(clock) }),
    stream: (turn, run, logger) => responseStream(turn, parsed, run, logger, clock),
    replayStream: replayedResponseStream,
    sessionOf: (stored) => stored.chatSessionId,
    completed: async (turn, result) => {
      if (!keep.store) return;
      const body = responseObject(turn, parsed, { status: 'completed', result, completedAt: unixNow(clock) });
      await deps.responses
        .put({ sessionId: turn.session.id, answerId: turn.answerId, appId: keep.appId, turnId: turn.completionId, createdAtUs: clock.nowUs(), body })
        .catch((err: unknown) => deps.logger.error('a completed response could not be stored', err as Error));
    },
  };
}
