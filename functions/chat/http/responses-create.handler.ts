import { responseTurnRequest } from '../app/resolve-response-input';
import { checkRequestMcpServers } from '../app/request-mcp-servers';
import { responsePresenter } from './responses-presenters';
import { runTurnRoute } from './chat-turn-route';
import { runBackgroundRoute } from './responses-background-route';
import { CHAT_REQUESTS } from '../openapi/chat-requests';
import { httpRoute, lambdaStreamHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { chatProductionDeps, type ChatFunctionDeps } from '../wiring/chat-wiring';
import { CHAT_ROUTES } from '../chat-routes';

/**
 * POST /api/v1/responses: one chat turn in OpenAI's Responses shape, over the same sessions, usage,
 * billing, files, tools, limits and errors as chat completions. With `stream: true` the answer is the
 * Responses API's semantic events (`response.output_text.delta`, `response.completed`, …).
 */
export const createHandler = (deps: ChatFunctionDeps) =>
  httpRoute(CHAT_ROUTES.responsesCreate, deps, async (req) => {
    const { headers, body } = await readRequest(CHAT_REQUESTS.responsesCreate, req);
    const request = await responseTurnRequest(deps, req.chat!.app.id, body.parsed);
    await checkRequestMcpServers(deps, request.mcpServers ?? []);
    if (body.parsed.background) return runBackgroundRoute(deps, req, { headers, parsed: body.parsed, request, fingerprint: body.raw });
    const app = req.chat!.app;
    // What OpenAI stores unless told not to; an app with Zero Data Retention keeps nothing of it.
    const store = body.parsed.echo.store && !app.settings.zeroDataRetention;
    const presenter = responsePresenter(body.parsed, deps, { store, appId: app.id });
    return runTurnRoute(deps, req, { routeId: 'responsesCreate', headers, request, fingerprint: body.raw, presenter });
  });

export const handler = lambdaStreamHandler(createHandler, chatProductionDeps);
