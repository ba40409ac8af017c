import { publicProducts } from '../app/acp-discovery';
import { acpProductionDeps, type AcpFunctionDeps } from '../acp-wiring';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ACP_DISCOVERY_REQUESTS } from '../openapi/acp-discovery-requests';
import { ACP_ROUTES } from '../acp-routes';

/** GET /acp/{appId}/products: the app's active products in the ACP feed's ProductsResponse shape (public). */
export const createHandler = (deps: AcpFunctionDeps) =>
  httpRoute(ACP_ROUTES.acpProductsList, deps, async (req) => {
    const { path } = await readRequest(ACP_DISCOVERY_REQUESTS.acpProductsList, req);
    return {
      status: 200,
      headers: { 'Cache-Control': 'public, max-age=60' },
      body: await publicProducts(deps, { appId: path.appId }),
    };
  });

export const handler = lambdaHandler(createHandler, acpProductionDeps);
