import { parseChatRequest } from '../domain/chat-request';
import { chatCompletionPresenter } from './chat-presenters';
import { chatTurnBody, runTurnRoute } from './chat-turn-route';
import { httpRoute } from '../../platform/http/kit';
import { lambdaStreamHandler } from '../../platform/http/lambda';
import { chatProductionDeps, type ChatFunctionDeps } from '../wiring/chat-wiring';
import { CHAT_ROUTES } from '../chat-routes';

/**
 * POST /api/v1/chat/completions: one chat turn in the OpenAI chat-completion shape. Everything that can
 * fail with a status (auth, plan, rate limit, validation, session, files, credits) fails before the
 * first byte; with `stream: true` the answer then streams as `chat.completion.chunk` events.
 */
export const createHandler = (deps: ChatFunctionDeps) =>
  httpRoute(CHAT_ROUTES.chatCompletionsCreate, deps, async (req) => {
    const body = chatTurnBody(req);
    const request = parseChatRequest(body, req.chat!.app.appNameId);
    return runTurnRoute(deps, req, { routeId: 'chatCompletionsCreate', request, fingerprint: body, presenter: chatCompletionPresenter(request) });
  });

export const handler = lambdaStreamHandler(createHandler, chatProductionDeps);
