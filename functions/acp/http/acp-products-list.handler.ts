import { publicProducts } from '../app/acp-discovery';
import { acpProductionDeps, type AcpFunctionDeps } from '../wiring/acp-wiring';
import { httpRoute } from '../../platform/http/kit';
import { lambdaHandler } from '../../platform/http/lambda';
import { ACP_ROUTES } from '../acp-routes';

/** GET /acp/{appId}/products: the app's active products in the ACP feed's ProductsResponse shape (public). */
export const createHandler = (deps: AcpFunctionDeps) =>
  httpRoute(ACP_ROUTES.acpProductsList, deps, async (req) => ({
    status: 200,
    headers: { 'Cache-Control': 'public, max-age=60' },
    body: await publicProducts(deps, { appId: req.path.appId ?? '' }),
  }));

export const handler = lambdaHandler(createHandler, acpProductionDeps);
