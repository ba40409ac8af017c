import { chatCompletionPresenter } from './chat-presenters';
import { runTurnRoute } from './chat-turn-route';
import { CHAT_REQUESTS } from '../openapi/chat-requests';
import { httpRoute, lambdaStreamHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { chatProductionDeps, type ChatFunctionDeps } from '../wiring/chat-wiring';
import { CHAT_ROUTES } from '../chat-routes';

/**
 * POST /api/v1/chat/completions: one chat turn in the OpenAI chat-completion shape. Everything that can
 * fail with a status (auth, plan, rate limit, validation, session, files, credits) fails before the
 * first byte; with `stream: true` the answer then streams as `chat.completion.chunk` events.
 */
export const createHandler = (deps: ChatFunctionDeps) =>
  httpRoute(CHAT_ROUTES.chatCompletionsCreate, deps, async (req) => {
    const { headers, body } = await readRequest(CHAT_REQUESTS.chatCompletionsCreate, req);
    const request = body.parsed;
    return runTurnRoute(deps, req, { routeId: 'chatCompletionsCreate', headers, request, fingerprint: body.raw, presenter: chatCompletionPresenter(request) });
  });

export const handler = lambdaStreamHandler(createHandler, chatProductionDeps);
