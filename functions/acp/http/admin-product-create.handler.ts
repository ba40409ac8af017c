import { createProduct } from '../app/manage-products';
import { acpProductionDeps, type AdminProductsDeps } from '../wiring/acp-wiring';
import { adminProduct } from './acp-admin-presenters';
import { httpRoute } from '../../platform/http/kit';
import { lambdaHandler } from '../../platform/http/lambda';
import { parseWith } from '../../platform/http/validation';
import { PRODUCT_CREATE_BODY } from '../openapi/admin-product-requests';
import { ACP_ROUTES } from '../acp-routes';

/** POST /admin/v1/apps/{appId}/products: a product of the app's ACP catalog (active). */
export const createHandler = (deps: AdminProductsDeps) =>
  httpRoute(ACP_ROUTES.adminProductCreate, deps, async (req) => {
    const input = parseWith(PRODUCT_CREATE_BODY, req.jsonBody());
    const product = await createProduct(deps, {
      appId: req.path.appId ?? '',
      product: {
        title: input.title,
        priceMinor: input.price,
        currency: input.currency,
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.inventory !== undefined ? { inventory: input.inventory } : {}),
        ...(input.imageUrl !== undefined ? { imageUrl: input.imageUrl } : {}),
      },
    });
    return { status: 201, body: { data: adminProduct(product) } };
  });

export const handler = lambdaHandler(createHandler, acpProductionDeps);
