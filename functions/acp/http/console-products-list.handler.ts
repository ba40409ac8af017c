import { listProducts } from '../app/manage-products';
import { consoleProductsProductionDeps, type ConsoleProductsDeps } from '../acp-console-wiring';
import { adminProduct } from './acp-admin-presenters';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../../tenancy/app/admit-console-member';
import { ACP_CONSOLE_READ_REQUESTS } from '../openapi/acp-console-read-requests';
import { ACP_CONSOLE_ROUTES } from '../acp-console-routes';

/** GET /console/v1/orgs/{orgId}/apps/{appId}/products: every product of the org's app, inactive ones included, oldest first. */
export const createHandler = (deps: ConsoleProductsDeps) =>
  httpRoute(ACP_CONSOLE_ROUTES.consoleProductsList, deps, async (req) => {
    const { path } = await readRequest(ACP_CONSOLE_READ_REQUESTS.consoleProductsList, req, { queryPolicy: strictQuery });
    const products = await listProducts(deps, { appId: path.appId, orgId: consoleOrgOf(req).orgId, activeOnly: false });
    return { status: 200, body: { data: products.map(adminProduct) } };
  });

export const handler = lambdaHandler(createHandler, consoleProductsProductionDeps);
