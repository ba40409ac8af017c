/**
 * The admin route that serves the admin API's OpenAPI document (functions/openapi/admin-document.ts)
 * to an admin caller; the public document is a static file of the front door (docs-site.ts).
 * Joined into the one route table by functions/routes.ts; synth loads this file, so it imports only types and leaf modules.
 */
import { ADMIN_API_BASE as ADMIN } from '../kernel/domain/admin-api-base';
import { adminRoute, routeTable } from '../kernel/route-vocabulary';

export const OPENAPI_ROUTES = routeTable({
  adminOpenApiGet: adminRoute({
    method: 'GET',
    path: `${ADMIN}/openapi.json`,
    handler: 'openapi/http/admin-openapi-get',
    body: 'none',
    grants: [],
  }),
});
