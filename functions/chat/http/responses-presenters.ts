/**
 * The Responses API's semantic stream events for a chat turn run from a Responses request, and the
 * presenter of its response object (domain/response-object.ts).
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Clock } from '../../kernel/app/kernel-ports';
import type { ResponseStore } from '../app/chat-ports';
import { microsToMs } from '../../kernel/domain/time';
import type { PreparedTurn } from '../app/prepare-chat-turn';
import type { TurnEvent, TurnResult } from '../app/run-chat-turn';
import type { ResponsesRequest } from '../domain/responses-request';
import { messageItemId } from '../domain/response-ids';
import { outputOf, outputText, responseObject, type ResponseObject } from '../domain/response-object';
import type { TurnPresenter } from './chat-turn-route';
import { drainTurn } from './turn-streams';

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
  for (const piece of replayedEvents(stored, eventWriter(startingAfter), true)) if (piece) yield piece;
}

/** The response before it had output, in a status. */
const snapshot = (stored: ResponseObject, status: string) => ({
  ...stored,
  status,
  completed_at: null,
  output: [],
  usage: null,
  incomplete_details: null,
  error: null,
});

function* replayedEvents(stored: ResponseObject, event: ReturnType<typeof eventWriter>, created: boolean): Iterable<string> {
  const started = snapshot(stored, 'in_progress');
  if (created) yield event('response.created', { response: started });
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
  yield event(finalEventOf(stored.status), { response: stored });
}

function finalEventOf(status: string): string {
  if (status === 'completed') return 'response.completed';
  return status === 'incomplete' ? 'response.incomplete' : 'response.failed';
}

/** How often a background response's stream looks for its end, and for how long (a Lambda runs 300 s at most). */
const BACKGROUND_POLL_MS = 250;
const BACKGROUND_STREAM_MS = 280_000;

/**
 * A background response as a stream (its POST with `stream: true`, or `GET ?stream=true`): created and
 * queued at once, then, when the run has ended, the events of its answer. The events are the same
 * whenever the stream is read, so `starting_after` resumes one that was cut; a stream that reaches its
 * time limit first ends, and is resumed the same way.
 */
export async function* backgroundResponseStream(
  first: ResponseObject,
  load: () => Promise<ResponseObject | undefined>,
  startingAfter = -1,
): AsyncIterable<string> {
  const event = eventWriter(startingAfter);
  const queued = snapshot(first, 'queued');
  for (const piece of [event('response.created', { response: queued }), event('response.queued', { response: queued })]) if (piece) yield piece;
  const deadline = Date.now() + BACKGROUND_STREAM_MS;
  let current: ResponseObject | undefined = first;
  while (current && !TERMINAL_STATUSES.includes(current.status) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, BACKGROUND_POLL_MS));
    current = await load();
  }
  if (!current || !TERMINAL_STATUSES.includes(current.status)) return;
  for (const piece of replayedEvents(current, event, false)) if (piece) yield piece;
}

const TERMINAL_STATUSES: readonly string[] = ['completed', 'incomplete', 'failed', 'cancelled'];

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
        .put({
          sessionId: turn.session.id,
          answerId: turn.answerId,
          appId: keep.appId,
          turnId: turn.completionId,
          createdAtUs: clock.nowUs(),
          status: body.status,
          body,
        })
        .catch((err: unknown) => deps.logger.error('a completed response could not be stored', err as Error));
    },
  };
}
