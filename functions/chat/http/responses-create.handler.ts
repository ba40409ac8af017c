import { attachInputFiles } from '../app/resolve-input-files';
import { responseTurnRequest } from '../app/resolve-response-input';
import { checkRequestMcpServers } from '../app/request-mcp-servers';
import type { ChatRequest } from '../domain/chat-request';
import { filePartsOf } from '../domain/responses-input';
import { responsePresenter } from './responses-presenters';
import { runTurnRoute } from './chat-turn-route';
import { runBackgroundRoute } from './responses-background-route';
import { CHAT_REQUESTS } from '../openapi/chat-requests';
import { httpRoute, lambdaStreamHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { responsesProductionDeps, type ResponsesFunctionDeps } from '../wiring/responses-wiring';
import { CHAT_ROUTES } from '../chat-routes';

/**
 * POST /api/v1/responses: one chat turn in OpenAI's Responses shape, over the same sessions, usage,
 * billing, files, tools, limits and errors as chat completions. With `stream: true` the answer is the
 * Responses API's semantic events (`response.output_text.delta`, `response.completed`, …). Files in
 * `input_image` / `input_file` parts are stored (or checked, by id) once the request holds its
 * Idempotency-Key, and attach as `files` do (ADR 0048).
 */
export const createHandler = (deps: ResponsesFunctionDeps) =>
  httpRoute(CHAT_ROUTES.responsesCreate, deps, async (req) => {
    const { headers, body } = await readRequest(CHAT_REQUESTS.responsesCreate, req);
    const read = await responseTurnRequest(deps, req.chat!.app.id, body.parsed);
    const request = read.mcpServers?.length ? { ...read, mcpServers: await checkRequestMcpServers(deps, read.mcpServers) } : read;
    const parts = filePartsOf(body.parsed.input);
    const headerSessionId = headers['X-Chat-Session-ID'];
    const complete = (r: ChatRequest) =>
      attachInputFiles(deps, { principal: req.chat!, request: r, parts, ...(headerSessionId !== undefined ? { headerSessionId } : {}) });
    const files = parts.length ? { complete } : {};
    if (body.parsed.background) return runBackgroundRoute(deps, req, { headers, parsed: body.parsed, request, ...files, fingerprint: body.raw });
    const app = req.chat!.app;
    // What OpenAI stores unless told not to; an app with Zero Data Retention keeps nothing of it.
    const store = body.parsed.echo.store && !app.settings.zeroDataRetention;
    const presenter = responsePresenter(body.parsed, deps, { store, appId: app.id });
    return runTurnRoute(deps, req, { routeId: 'responsesCreate', headers, request, ...files, fingerprint: body.raw, presenter });
  });

export const handler = lambdaStreamHandler(createHandler, responsesProductionDeps);
