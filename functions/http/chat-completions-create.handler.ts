import { prepareChatTurn, runChatTurn, type TurnEvent, type TurnResult } from '../app/run-chat-turn';
import { requestFingerprint } from '../domain/digest';
import { MAX_CHAT_REQUEST_BYTES, parseChatRequest, utf8Length } from '../domain/chat-request';
import { badRequest, BusyError, DomainError } from '../domain/errors';
import { chatCompletion, replayedStream, sseStream } from './chat-presenters';
import { httpRoute } from './kit';
import { lambdaStreamHandler } from './lambda';
import { chatProductionDeps, type ChatFunctionDeps } from '../wiring/chat-wiring';

/**
 * POST /api/v1/chat/completions: one chat turn in the OpenAI chat-completion shape. Everything that can
 * fail with a status (auth, plan, rate limit, validation, session, files, credits) fails before the
 * first byte; with `stream: true` the answer then streams as `chat.completion.chunk` events.
 */
/** How long a turn may run before its Idempotency-Key counts as abandoned (the function's 300 s timeout). */
const CHAT_IN_FLIGHT_MS = 300_000;

export const createHandler = (deps: ChatFunctionDeps) =>
  httpRoute('chatCompletionsCreate', deps, async (req) => {
    if (!/^application\/json\s*(;|$)/i.test(req.header('content-type') ?? '')) throw badRequest('Content-Type must be application/json');
    if (utf8Length(req.textBody()) > MAX_CHAT_REQUEST_BYTES) {
      throw new DomainError('payload_too_large', `Request body too large: at most ${MAX_CHAT_REQUEST_BYTES} bytes (5 MiB)`);
    }
    const body = req.jsonBody();
    const request = parseChatRequest(body, req.chat!.app.appNameId);
    const headerSessionId = req.header('x-chat-session-id');

    // Idempotency-Key (docs/adr/0023): a retry gets the first answer and runs nothing again.
    const idempotencyKey = req.header('idempotency-key');
    let scope: string | undefined;
    if (idempotencyKey !== undefined) {
      if (idempotencyKey.length < 1 || idempotencyKey.length > 255) throw badRequest('Idempotency-Key must be 1 to 255 characters');
      scope = `chat:${req.chat!.keyId}:chatCompletionsCreate:${idempotencyKey}`;
      const begun = await deps.idempotency.begin(scope, requestFingerprint({ body, headerSessionId: headerSessionId ?? null }), Date.now(), CHAT_IN_FLIGHT_MS);
      if (begun.state === 'conflict') throw new DomainError('unprocessable', 'This Idempotency-Key was used with a different request');
      if (begun.state === 'in_flight') throw new BusyError('A request with this Idempotency-Key is still running; retry when it has finished', 1);
      if (begun.state === 'replay') {
        const stored = begun.body as ReturnType<typeof chatCompletion>;
        const headers = { 'X-Chat-Session-ID': stored.chatSessionId, 'Idempotent-Replayed': 'true' };
        if (request.stream) return { status: 200, headers: { ...headers, 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' }, stream: replayedStream(stored, request) };
        return { status: begun.status, headers, body: stored };
      }
    }
    const forget = async () => {
      if (scope) await deps.idempotency.finish(scope, undefined).catch(() => undefined);
    };
    try {
      const input = { principal: req.chat!, request };
      const turn = await prepareChatTurn(deps, { ...input, ...(headerSessionId !== undefined ? { headerSessionId } : {}) });
      const run = remembered(runChatTurn(deps, turn, input), async (result) => {
        if (scope) await deps.idempotency.finish(scope, { status: 200, body: chatCompletion(turn, request, result) }).catch((err: unknown) => deps.logger.error('idempotency answer not stored', err as Error));
      }, forget);
      const sessionHeader = { 'X-Chat-Session-ID': turn.session.id };
      if (request.stream) {
        return { status: 200, headers: { ...sessionHeader, 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' }, stream: sseStream(turn, request, run, deps.logger) };
      }
      let step = await run.next();
      while (!step.done) step = await run.next();
      return { status: 200, headers: sessionHeader, body: chatCompletion(turn, request, step.value) };
    } catch (err) {
      // Refused before the turn ran (or failed in it): the key is forgotten, a retry runs afresh.
      await forget();
      throw err;
    }
  });

/** Passes a turn's events through; stores its answer once it completed, or forgets the key when it failed. */
async function* remembered(run: AsyncGenerator<TurnEvent, TurnResult>, done: (result: TurnResult) => Promise<void>, failed: () => Promise<void>): AsyncGenerator<TurnEvent, TurnResult> {
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

export const handler = lambdaStreamHandler(createHandler, chatProductionDeps);
