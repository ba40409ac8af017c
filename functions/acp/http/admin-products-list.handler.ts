import { listProducts } from '../app/manage-products';
import { acpProductionDeps, type AdminProductsDeps } from '../acp-wiring';
import { adminProduct } from './acp-admin-presenters';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ACP_ADMIN_READ_REQUESTS } from '../openapi/acp-admin-read-requests';
import { ACP_ROUTES } from '../acp-routes';

/** GET /admin/v1/apps/{appId}/products: every product of the app, inactive ones included, oldest first. */
export const createHandler = (deps: AdminProductsDeps) =>
  httpRoute(ACP_ROUTES.adminProductsList, deps, async (req) => {
    const { path } = await readRequest(ACP_ADMIN_READ_REQUESTS.adminProductsList, req);
    const products = await listProducts(deps, { appId: path.appId, activeOnly: false });
    return { status: 200, body: { data: products.map(adminProduct) } };
  });

export const handler = lambdaHandler(createHandler, acpProductionDeps);
