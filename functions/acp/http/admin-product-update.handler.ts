import { updateProduct } from '../app/manage-products';
import { acpProductionDeps, type AdminProductsDeps } from '../acp-wiring';
import { adminProduct } from './acp-admin-presenters';
import { productPatchOf } from './acp-product-input';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ACP_ADMIN_REQUESTS } from '../openapi/acp-admin-requests';
import { ACP_ROUTES } from '../acp-routes';

/** PATCH /admin/v1/products/{productId}: change fields; `{"active": false}` deactivates. */
export const createHandler = (deps: AdminProductsDeps) =>
  httpRoute(ACP_ROUTES.adminProductUpdate, deps, async (req) => {
    const { path, body } = await readRequest(ACP_ADMIN_REQUESTS.adminProductUpdate, req);
    const product = await updateProduct(deps, { productId: path.productId, patch: productPatchOf(body) });
    return { status: 200, body: { data: adminProduct(product) }, audit: { orgId: product.orgId } };
  });

export const handler = lambdaHandler(createHandler, acpProductionDeps);
