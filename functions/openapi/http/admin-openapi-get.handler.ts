import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { adminProductionDeps, type AdminBaseDeps } from '../../tenancy/wiring/admin-wiring';
import { buildAdminOpenApiDocument } from '../admin-document';
import { OPENAPI_ROUTES } from '../openapi-routes';

let cached: Record<string, unknown> | undefined;

/** GET /admin/v1/openapi.json: the admin API's OpenAPI document, built once per process. */
export const createHandler = (deps: AdminBaseDeps) =>
  httpRoute(OPENAPI_ROUTES.adminOpenApiGet, deps, async () => {
    cached ??= buildAdminOpenApiDocument();
    return { status: 200, body: cached, headers: { 'Cache-Control': 'no-store' } };
  });

export const handler = lambdaHandler(createHandler, adminProductionDeps);
