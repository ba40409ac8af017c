import { agentCardDocument } from '../app/acp-discovery';
import { agentCardRepresentation, notModified } from '../domain/discovery';
import { acpProductionDeps, type AcpFunctionDeps } from '../wiring/acp-wiring';
import { publicBaseUrl } from '../../platform/http/base-url';
import type { RouteDef } from '../../kernel/route-vocabulary';
import { httpRoute, type HttpHandler } from '../../platform/http/kit';
import type { HttpRequest } from '../../platform/http/kit-request';
import { lambdaHandler } from '../../platform/http/lambda';
import { ACP_ROUTES } from '../acp-routes';

const CACHE_CONTROL = 'public, max-age=3600';

/** Every `If-None-Match` field line of the request as one list, as RFC 9110 §5.3 combines repeated fields. */
function ifNoneMatchOf(req: HttpRequest): string | undefined {
  const lines = Object.entries(req.event.multiValueHeaders ?? {})
    .filter(([name]) => name.toLowerCase() === 'if-none-match')
    .flatMap(([, values]) => values ?? []);
  return lines.length ? lines.join(', ') : req.header('if-none-match');
}

/**
 * The A2A 1.0 Agent Card of the app's checkout, public, at both of its paths: the same bytes with
 * `Cache-Control` and a strong `ETag`; a matching `If-None-Match` is a 304 with both headers and no body.
 */
export const agentCardRoute = (route: RouteDef, deps: AcpFunctionDeps): HttpHandler =>
  httpRoute(route, deps, async (req) => {
    const card = agentCardRepresentation(await agentCardDocument(deps, { appId: req.path.appId ?? '', baseUrl: publicBaseUrl(deps, req) }));
    const headers = { 'Cache-Control': CACHE_CONTROL, ETag: card.etag };
    if (notModified(ifNoneMatchOf(req), card.etag)) return { status: 304, headers };
    return { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers }, text: card.json };
  });

/** GET /acp/{appId}/.well-known/agent-card.json: the A2A well-known path of the card. */
export const createHandler = (deps: AcpFunctionDeps) => agentCardRoute(ACP_ROUTES.acpAgentCardV3, deps);

export const handler = lambdaHandler(createHandler, acpProductionDeps);
