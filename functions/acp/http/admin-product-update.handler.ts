import * as z from 'zod/mini';
import { updateProduct } from '../app/manage-products';
import { badRequest } from '../../platform/domain/errors';
import { acpProductionDeps, type AdminProductsDeps } from '../wiring/acp-wiring';
import { adminProduct } from './acp-admin-presenters';
import { httpRoute } from '../../platform/http/kit';
import { lambdaHandler } from '../../platform/http/lambda';
import { parseWith } from '../../platform/http/validation';
import { ACP_ROUTES } from '../acp-routes';

const body = z.strictObject({
  title: z.optional(z.string()),
  description: z.optional(z.string()),
  price: z.optional(z.int()),
  currency: z.optional(z.string()),
  inventory: z.optional(z.nullable(z.int())),
  active: z.optional(z.boolean()),
  imageUrl: z.optional(z.nullable(z.string())),
});

/** PATCH /admin/v1/products/{productId}: change fields; `{"active": false}` deactivates. */
export const createHandler = (deps: AdminProductsDeps) =>
  httpRoute(ACP_ROUTES.adminProductUpdate, deps, async (req) => {
    const { price, ...rest } = parseWith(body, req.jsonBody());
    const patch = { ...rest, ...(price !== undefined ? { priceMinor: price } : {}) };
    if (Object.keys(patch).length === 0) throw badRequest('Nothing to change: send at least one field');
    const product = await updateProduct(deps, { productId: req.path.productId ?? '', patch });
    return { status: 200, body: { data: adminProduct(product) } };
  });

export const handler = lambdaHandler(createHandler, acpProductionDeps);
