import { discoveryDocument } from '../app/acp-discovery';
import { acpProductionDeps, type AcpFunctionDeps } from '../acp-wiring';
import { publicBaseUrl } from '../../kernel/http/base-url';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ACP_DISCOVERY_REQUESTS } from '../openapi/acp-discovery-requests';
import { ACP_ROUTES } from '../acp-routes';

/** GET /acp/{appId}/.well-known/acp.json: ACP's discovery document (DiscoveryResponse), public and cacheable. */
export const createHandler = (deps: AcpFunctionDeps) =>
  httpRoute(ACP_ROUTES.acpDiscovery, deps, async (req) => {
    const { path } = await readRequest(ACP_DISCOVERY_REQUESTS.acpDiscovery, req);
    return {
      status: 200,
      headers: { 'Cache-Control': 'public, max-age=3600' },
      body: await discoveryDocument(deps, { appId: path.appId, baseUrl: publicBaseUrl(deps, req) }),
    };
  });

export const handler = lambdaHandler(createHandler, acpProductionDeps);
