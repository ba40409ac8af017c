import { updateProduct } from '../app/manage-products';
import { consoleProductsProductionDeps, type ConsoleProductsDeps } from '../acp-console-wiring';
import { adminProduct } from './acp-admin-presenters';
import { productPatchOf } from './acp-product-input';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../../tenancy/app/admit-console-member';
import { ACP_CONSOLE_REQUESTS } from '../openapi/acp-console-requests';
import { ACP_CONSOLE_ROUTES } from '../acp-console-routes';

/** PATCH /console/v1/orgs/{orgId}/apps/{appId}/products/{productId}: changes the fields sent; `{"active": false}` takes it out of the catalog. */
export const createHandler = (deps: ConsoleProductsDeps) =>
  httpRoute(ACP_CONSOLE_ROUTES.consoleProductUpdate, deps, async (req) => {
    const { path, body } = await readRequest(ACP_CONSOLE_REQUESTS.consoleProductUpdate, req, { queryPolicy: strictQuery });
    const patch = productPatchOf(body);
    const scope = { appId: path.appId, orgId: consoleOrgOf(req).orgId };
    const data = adminProduct(await updateProduct(deps, { productId: path.productId, patch, scope }));
    return { status: 200, body: { data }, audit: { after: data } };
  });

export const handler = lambdaHandler(createHandler, consoleProductsProductionDeps);
