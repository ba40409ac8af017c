import { agentCardDocument } from '../app/acp-discovery';
import { agentCardRepresentation, notModified } from '../domain/discovery';
import { acpProductionDeps, type AcpFunctionDeps } from '../acp-wiring';
import { publicBaseUrl } from '../../kernel/http/base-url';
import { httpRoute, type HttpHandler, lambdaHandler } from '../../kernel/http/kit';
import { ACP_ROUTES } from '../acp-routes';
import { readRequest } from '../../kernel/http/request-declaration';
import { ACP_DISCOVERY_REQUESTS } from '../openapi/acp-discovery-requests';

const CACHE_CONTROL = 'public, max-age=3600';

/**
 * The A2A 1.0 Agent Card of the app's checkout, public, at both of its paths: the same bytes with
 * `Cache-Control` and a strong `ETag`; a matching `If-None-Match` is a 304 with both headers and no body.
 */
export const agentCardRoute = (routeId: 'acpAgentCard' | 'acpAgentCardV3', deps: AcpFunctionDeps): HttpHandler =>
  httpRoute(ACP_ROUTES[routeId], deps, async (req) => {
    const { path, headers: sent } = await readRequest(ACP_DISCOVERY_REQUESTS[routeId], req);
    const card = agentCardRepresentation(await agentCardDocument(deps, { appId: path.appId, baseUrl: publicBaseUrl(deps, req) }));
    const headers = { 'Cache-Control': CACHE_CONTROL, ETag: card.etag };
    if (notModified(sent['If-None-Match'], card.etag)) return { status: 304, headers };
    return { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers }, text: card.json };
  });

/** GET /acp/{appId}/.well-known/agent-card.json: the A2A well-known path of the card. */
export const createHandler = (deps: AcpFunctionDeps) => agentCardRoute('acpAgentCardV3', deps);

export const handler = lambdaHandler(createHandler, acpProductionDeps);
