import { updateProduct } from '../app/manage-products';
import { badRequest } from '../../platform/domain/errors';
import { acpProductionDeps, type AdminProductsDeps } from '../wiring/acp-wiring';
import { adminProduct } from './acp-admin-presenters';
import { httpRoute } from '../../platform/http/kit';
import { lambdaHandler } from '../../platform/http/lambda';
import { parseWith } from '../../platform/http/validation';
import { PRODUCT_UPDATE_BODY } from '../openapi/admin-product-requests';
import { ACP_ROUTES } from '../acp-routes';

/** PATCH /admin/v1/products/{productId}: change fields; `{"active": false}` deactivates. */
export const createHandler = (deps: AdminProductsDeps) =>
  httpRoute(ACP_ROUTES.adminProductUpdate, deps, async (req) => {
    const { price, ...rest } = parseWith(PRODUCT_UPDATE_BODY, req.jsonBody());
    const patch = { ...rest, ...(price !== undefined ? { priceMinor: price } : {}) };
    if (Object.keys(patch).length === 0) throw badRequest('Nothing to change: send at least one field');
    const product = await updateProduct(deps, { productId: req.path.productId ?? '', patch });
    return { status: 200, body: { data: adminProduct(product) } };
  });

export const handler = lambdaHandler(createHandler, acpProductionDeps);
