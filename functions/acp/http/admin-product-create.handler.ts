import { createProduct } from '../app/manage-products';
import { acpProductionDeps, type AdminProductsDeps } from '../acp-wiring';
import { adminProduct } from './acp-admin-presenters';
import { productInputOf } from './acp-product-input';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ACP_ADMIN_REQUESTS } from '../openapi/acp-admin-requests';
import { ACP_ROUTES } from '../acp-routes';

/** POST /admin/v1/apps/{appId}/products: a product of the app's ACP catalog (active). */
export const createHandler = (deps: AdminProductsDeps) =>
  httpRoute(ACP_ROUTES.adminProductCreate, deps, async (req) => {
    const { path, body } = await readRequest(ACP_ADMIN_REQUESTS.adminProductCreate, req);
    const product = await createProduct(deps, { appId: path.appId, product: productInputOf(body) });
    return { status: 201, body: { data: adminProduct(product) }, audit: { orgId: product.orgId, resource: { type: 'product', id: product.id } } };
  });

export const handler = lambdaHandler(createHandler, acpProductionDeps);
