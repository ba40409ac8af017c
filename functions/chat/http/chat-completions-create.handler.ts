import { bodyTooLargeMessage, MAX_CHAT_REQUEST_BYTES } from '../../platform/domain/body-limits';
import { parseChatRequest } from '../domain/chat-request';
import { utf8Length } from '../../platform/domain/utf8';
import { badRequest, DomainError } from '../../platform/domain/errors';
import { chatCompletionPresenter } from './chat-presenters';
import { runTurnRoute } from './chat-turn-route';
import { httpRoute } from '../../platform/http/kit';
import { lambdaStreamHandler } from '../../platform/http/lambda';
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
      throw new DomainError('payload_too_large', bodyTooLargeMessage(MAX_CHAT_REQUEST_BYTES));
    }
    const body = req.jsonBody();
    const request = parseChatRequest(body, req.chat!.app.appNameId);
    return runTurnRoute(deps, req, { routeId: 'chatCompletionsCreate', request, fingerprint: body, presenter: chatCompletionPresenter(request) });
  });

export const handler = lambdaStreamHandler(createHandler, chatProductionDeps);
