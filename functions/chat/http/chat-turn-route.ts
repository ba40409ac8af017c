/**
 * What the two chat-turn routes (chat completions and responses) share: the Idempotency-Key claim, the
 * turn prepared (every refusal before the first byte) and run, its answer remembered for a retry, and
 * the answer as JSON or as a stream in the route's own wire shape.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { prepareChatTurn, type PreparedTurn } from '../app/prepare-chat-turn';
import { runChatTurn, type TurnEvent, type TurnResult } from '../app/run-chat-turn';
import type { ChatRequest } from '../domain/chat-request';
import type { HttpRequest } from '../../platform/http/kit-request';
import { claimChatRequest } from './chat-idempotency';
import type { ChatFunctionDeps } from '../wiring/chat-wiring';

/** How long a turn may run before its Idempotency-Key counts as abandoned (the function's 300 s timeout). */
const CHAT_IN_FLIGHT_MS = 300_000;

/** A route's wire shapes for a turn's answer. */
export interface TurnPresenter<Answer> {
  answer(turn: PreparedTurn, result: TurnResult): Answer;
  stream(turn: PreparedTurn, run: AsyncGenerator<TurnEvent, TurnResult>, logger: Logger): AsyncIterable<string>;
  /** A stored answer sent again as the stream it would have been. */
  replayStream(stored: Answer): AsyncIterable<string>;
  sessionOf(stored: Answer): string;
}

/** The headers a chat turn reads (chat/openapi/chat-requests.ts), as sent. */
export interface TurnHeaders {
  readonly 'X-Chat-Session-ID'?: string;
  readonly 'Idempotency-Key'?: string;
}

const SSE_HEADERS = { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' };

export async function runTurnRoute<Answer>(
  deps: ChatFunctionDeps,
  req: HttpRequest,
  input: {
    readonly routeId: string;
    readonly headers: TurnHeaders;
    readonly request: ChatRequest;
    readonly fingerprint: unknown;
    readonly presenter: TurnPresenter<Answer>;
  },
) {
  const { request, presenter } = input;
  const headerSessionId = input.headers['X-Chat-Session-ID'];
  // Idempotency-Key (docs/adr/0023): a retry gets the first answer and runs nothing again.
  const claim = await claimChatRequest(deps, req, {
    routeId: input.routeId,
    key: input.headers['Idempotency-Key'],
    request: () => ({ body: input.fingerprint, headerSessionId: headerSessionId ?? null }),
    inFlightMs: CHAT_IN_FLIGHT_MS,
  });
  if (claim.state === 'replay') {
    const stored = claim.body as Answer;
    const headers = { 'X-Chat-Session-ID': presenter.sessionOf(stored), 'Idempotent-Replayed': 'true' };
    if (request.stream) return { status: 200, headers: { ...headers, ...SSE_HEADERS }, stream: presenter.replayStream(stored) };
    return { status: claim.status, headers, body: stored };
  }
  try {
    const turnInput = { principal: req.chat!, request };
    const turn = await prepareChatTurn(deps, { ...turnInput, ...(headerSessionId !== undefined ? { headerSessionId } : {}) });
    const run = remembered(runChatTurn(deps, turn, turnInput), (result) => claim.remember(200, presenter.answer(turn, result)), claim.forget);
    const sessionHeader = { 'X-Chat-Session-ID': turn.session.id };
    if (request.stream) return { status: 200, headers: { ...sessionHeader, ...SSE_HEADERS }, stream: presenter.stream(turn, run, deps.logger) };
    let step = await run.next();
    while (!step.done) step = await run.next();
    return { status: 200, headers: sessionHeader, body: presenter.answer(turn, step.value) };
  } catch (err) {
    // Refused before the turn ran (or failed in it): the key is forgotten, a retry runs afresh.
    await claim.forget();
    throw err;
  }
}

/** Passes a turn's events through; stores its answer once it completed, or forgets the key when it failed. */
async function* remembered(
  run: AsyncGenerator<TurnEvent, TurnResult>,
  done: (result: TurnResult) => Promise<void>,
  failed: () => Promise<void>,
): AsyncGenerator<TurnEvent, TurnResult> {
  let result: TurnResult;
  try {
    result = yield* run;
  } catch (err) {
    await failed();
    throw err;
  }
  await done(result);
  return result;
}

/** A stream that ends early because the client left: the turn still runs to its end, so it is recorded and billed. */
export async function drainTurn(run: AsyncGenerator<TurnEvent, TurnResult>, logger: Logger): Promise<void> {
  try {
    while (!(await run.next()).done);
  } catch (err) {
    logger.error('chat turn failed after the client disconnected', err as Error);
  }
}
