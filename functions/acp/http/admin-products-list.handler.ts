import { listProducts } from '../app/manage-products';
import { adminProductsProductionDeps, type AdminProductsDeps } from '../wiring/admin-products-wiring';
import { adminProduct } from './acp-admin-presenters';
import { httpRoute } from '../../platform/http/kit';
import { readRequest } from '../../platform/http/request-declaration';
import { ACP_ADMIN_READ_REQUESTS } from '../openapi/acp-admin-read-requests';
import { lambdaHandler } from '../../platform/http/lambda';

/** GET /admin/v1/apps/{appId}/products: every product of the app, inactive ones included, oldest first. */
export const createHandler = (deps: AdminProductsDeps) =>
  httpRoute('adminProductsList', deps, async (req) => {
    const { path } = await readRequest(ACP_ADMIN_READ_REQUESTS.adminProductsList, req);
    const products = await listProducts(deps, { appId: path.appId, activeOnly: false });
    return { status: 200, body: { data: products.map(adminProduct) } };
  });

export const handler = lambdaHandler(createHandler, adminProductsProductionDeps);
