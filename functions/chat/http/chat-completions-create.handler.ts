import { prepareChatTurn } from '../app/prepare-chat-turn';
import { runChatTurn, type TurnEvent, type TurnResult } from '../app/run-chat-turn';
import { bodyTooLargeMessage, MAX_CHAT_REQUEST_BYTES } from '../../platform/domain/body-limits';
import { parseChatRequest } from '../domain/chat-request';
import { utf8Length } from '../../platform/domain/utf8';
import { badRequest, DomainError } from '../../platform/domain/errors';
import { chatCompletion, replayedStream, sseStream } from './chat-presenters';
import { claimChatRequest } from './chat-idempotency';
import { httpRoute } from '../../platform/http/kit';
import { lambdaStreamHandler } from '../../platform/http/lambda';
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
      throw new DomainError('payload_too_large', bodyTooLargeMessage(MAX_CHAT_REQUEST_BYTES));
    }
    const body = req.jsonBody();
    const request = parseChatRequest(body, req.chat!.app.appNameId);
    const headerSessionId = req.header('x-chat-session-id');

    // Idempotency-Key (docs/adr/0023): a retry gets the first answer and runs nothing again.
    const claim = await claimChatRequest(deps, req, {
      routeId: 'chatCompletionsCreate',
      request: () => ({ body, headerSessionId: headerSessionId ?? null }),
      inFlightMs: CHAT_IN_FLIGHT_MS,
    });
    if (claim.state === 'replay') {
      const stored = claim.body as ReturnType<typeof chatCompletion>;
      const headers = { 'X-Chat-Session-ID': stored.chatSessionId, 'Idempotent-Replayed': 'true' };
      if (request.stream)
        return {
          status: 200,
          headers: { ...headers, 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' },
          stream: replayedStream(stored, request),
        };
      return { status: claim.status, headers, body: stored };
    }
    try {
      const input = { principal: req.chat!, request };
      const turn = await prepareChatTurn(deps, { ...input, ...(headerSessionId !== undefined ? { headerSessionId } : {}) });
      const run = remembered(runChatTurn(deps, turn, input), (result) => claim.remember(200, chatCompletion(turn, request, result)), claim.forget);
      const sessionHeader = { 'X-Chat-Session-ID': turn.session.id };
      if (request.stream) {
        return {
          status: 200,
          headers: { ...sessionHeader, 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' },
          stream: sseStream(turn, request, run, deps.logger),
        };
      }
      let step = await run.next();
      while (!step.done) step = await run.next();
      return { status: 200, headers: sessionHeader, body: chatCompletion(turn, request, step.value) };
    } catch (err) {
      // Refused before the turn ran (or failed in it): the key is forgotten, a retry runs afresh.
      await claim.forget();
      throw err;
    }
  });

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

export const handler = lambdaStreamHandler(createHandler, chatProductionDeps);
