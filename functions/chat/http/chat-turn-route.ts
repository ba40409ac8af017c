/**
 * What the two chat-turn routes (chat completions and responses) share: the Idempotency-Key claim, the
 * turn prepared (every refusal before the first byte) and run, its answer remembered for a retry, and
 * the answer as JSON or as a stream in the route's own wire shape. The upload route claims its
 * Idempotency-Key here too (docs/adr/0023): another request with the key is a 422 and one still
 * running a 409 with Retry-After, in area B's error shape; no key claims nothing and remembers nothing.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { prepareChatTurn, type PreparedTurn } from '../app/prepare-chat-turn';
import { runChatTurn, type TurnEvent, type TurnResult } from '../app/run-chat-turn';
import type { ChatRequest } from '../domain/chat-request';
import type { KeyCaller } from '../../tenancy/app/admit-request';
import type { HttpRequest } from '../../kernel/http/kit-request';
import { badRequest, BusyError, DomainError } from '../../kernel/domain/errors';
import { claimIdempotencyKey, idempotencyKeyOf, type IdempotencyDeps } from '../../kernel/http/request-declaration';
import type { ChatFunctionDeps } from '../wiring/chat-wiring';
import { SSE_HEADERS } from './turn-streams';

/** How long a turn may run before its Idempotency-Key counts as abandoned (the function's 300 s timeout). */
const CHAT_IN_FLIGHT_MS = 300_000;

/** A claim area B can run under: a stored answer to replay, or the request's own to run and remember. */
export type ChatClaim =
  | { readonly state: 'replay'; readonly status: number; readonly body: unknown }
  | { readonly state: 'claimed'; remember(status: number, body: unknown): Promise<void>; forget(): Promise<void> };

const NO_KEY: ChatClaim = { state: 'claimed', remember: async () => undefined, forget: async () => undefined };

/**
 * Claims the request's key (its `Idempotency-Key`, as read) for the chat key that sent it. `request` gives what the fingerprint covers;
 * it is called only when a key was sent (an upload's digest is then worth computing).
 */
export async function claimChatRequest(
  deps: IdempotencyDeps,
  req: HttpRequest<KeyCaller>,
  input: { readonly routeId: string; readonly key: string | undefined; readonly request: () => unknown; readonly inFlightMs: number },
): Promise<ChatClaim> {
  const key = idempotencyKeyOf(input.key, badRequest);
  if (key === undefined) return NO_KEY;
  const claim = await claimIdempotencyKey(deps, {
    scope: `chat:${req.chat!.keyId}:${input.routeId}:${key}`,
    request: input.request(),
    inFlightMs: input.inFlightMs,
  });
  if (claim.state === 'conflict') throw new DomainError('unprocessable', 'This Idempotency-Key was used with a different request');
  if (claim.state === 'in_flight') throw new BusyError('A request with this Idempotency-Key is still running; retry when it has finished', 1);
  return claim;
}

/** A route's wire shapes for a turn's answer. */
export interface TurnPresenter<Answer> {
  answer(turn: PreparedTurn, result: TurnResult): Answer;
  stream(turn: PreparedTurn, run: AsyncGenerator<TurnEvent, TurnResult>, logger: Logger): AsyncIterable<string>;
  /** A stored answer sent again as the stream it would have been. */
  replayStream(stored: Answer): AsyncIterable<string>;
  sessionOf(stored: Answer): string;
  /** Once, when the turn has completed and been recorded: what the route keeps of it beyond the session (a stored response). */
  completed?(turn: PreparedTurn, result: TurnResult): Promise<void>;
}

/** The headers a chat turn reads (chat/openapi/chat-requests.ts), as sent. */
export interface TurnHeaders {
  readonly 'X-Chat-Session-ID'?: string;
  readonly 'Idempotency-Key'?: string;
}

export async function runTurnRoute<Answer>(
  deps: ChatFunctionDeps,
  req: HttpRequest<KeyCaller>,
  input: {
    readonly routeId: string;
    readonly headers: TurnHeaders;
    readonly request: ChatRequest;
    /** What completes the request and must not run again for a replay (storing a Responses request's input files). */
    readonly complete?: (request: ChatRequest) => Promise<ChatRequest>;
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
    const turnInput = { principal: req.chat!, request: input.complete ? await input.complete(request) : request };
    const turn = await prepareChatTurn(deps, { ...turnInput, ...(headerSessionId !== undefined ? { headerSessionId } : {}) });
    const run = remembered(
      runChatTurn(deps, turn, turnInput),
      async (result) => {
        await presenter.completed?.(turn, result);
        await claim.remember(200, presenter.answer(turn, result));
      },
      claim.forget,
    );
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
