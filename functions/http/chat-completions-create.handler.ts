import { prepareChatTurn, runChatTurn } from '../app/run-chat-turn';
import { MAX_CHAT_REQUEST_BYTES, parseChatRequest, utf8Length } from '../domain/chat-request';
import { badRequest, DomainError } from '../domain/errors';
import { chatCompletion, sseStream } from './chat-presenters';
import { httpRoute } from './kit';
import { lambdaStreamHandler } from './lambda';
import { chatProductionDeps, type ChatFunctionDeps } from '../wiring/chat-wiring';

/**
 * POST /api/v1/chat/completions: one chat turn in the OpenAI chat-completion shape. Everything that can
 * fail with a status (auth, plan, rate limit, validation, session, files, credits) fails before the
 * first byte; with `stream: true` the answer then streams as `chat.completion.chunk` events.
 */
export const createHandler = (deps: ChatFunctionDeps) =>
  httpRoute('chatCompletionsCreate', deps, async (req) => {
    if (!/^application\/json\s*(;|$)/i.test(req.header('content-type') ?? '')) throw badRequest('Content-Type must be application/json');
    if (utf8Length(req.textBody()) > MAX_CHAT_REQUEST_BYTES) {
      throw new DomainError('payload_too_large', `Request body too large: at most ${MAX_CHAT_REQUEST_BYTES} bytes (5 MiB)`);
    }
    const request = parseChatRequest(req.jsonBody(), req.chat!.app.appNameId);
    const headerSessionId = req.header('x-chat-session-id');
    const input = { principal: req.chat!, request };
    const turn = await prepareChatTurn(deps, { ...input, ...(headerSessionId !== undefined ? { headerSessionId } : {}) });
    const run = runChatTurn(deps, turn, input);
    const sessionHeader = { 'X-Chat-Session-ID': turn.session.id };
    if (request.stream) {
      return { status: 200, headers: { ...sessionHeader, 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' }, stream: sseStream(turn, request, run, deps.logger) };
    }
    let step = await run.next();
    while (!step.done) step = await run.next();
    return { status: 200, headers: sessionHeader, body: chatCompletion(turn, request, step.value) };
  });

export const handler = lambdaStreamHandler(createHandler, chatProductionDeps);
