import { createProduct } from '../app/manage-products';
import { consoleProductsProductionDeps, type ConsoleProductsDeps } from '../acp-console-wiring';
import { adminProduct } from './acp-admin-presenters';
import { productInputOf } from './acp-product-input';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../../tenancy/app/admit-console-member';
import { ACP_CONSOLE_REQUESTS } from '../openapi/acp-console-requests';
import { ACP_CONSOLE_ROUTES } from '../acp-console-routes';

/** POST /console/v1/orgs/{orgId}/apps/{appId}/products: a product of the org's app's ACP catalog (active). */
export const createHandler = (deps: ConsoleProductsDeps) =>
  httpRoute(ACP_CONSOLE_ROUTES.consoleProductCreate, deps, async (req) => {
    const { path, body } = await readRequest(ACP_CONSOLE_REQUESTS.consoleProductCreate, req, { queryPolicy: strictQuery });
    const product = await createProduct(deps, { appId: path.appId, orgId: consoleOrgOf(req).orgId, product: productInputOf(body) });
    const data = adminProduct(product);
    return { status: 201, body: { data }, audit: { resource: { type: 'product', id: product.id }, after: data } };
  });

export const handler = lambdaHandler(createHandler, consoleProductsProductionDeps);
