import { createApp } from '../app/manage-apps';
import type { AppSettings } from '../domain/app';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ADMIN_REQUESTS } from '../openapi/tenancy-admin-requests';
import { adminApp } from './admin-presenters';
import { adminProductionDeps, type AdminBaseDeps } from '../wiring/admin-wiring';
import { TENANCY_ROUTES } from '../tenancy-routes';

/** POST /admin/v1/orgs/{orgId}/apps: creates an app; the response carries its `appNameId`. */
export const createHandler = (deps: AdminBaseDeps) =>
  httpRoute(TENANCY_ROUTES.adminAppCreate, deps, async (req) => {
    const { path, body: input } = await readRequest(ADMIN_REQUESTS.adminAppCreate, req);
    const app = await createApp(deps, {
      orgId: path.orgId,
      name: input.name,
      ...(input.slug !== undefined ? { slug: input.slug } : {}),
      ...(input.settings ? { settings: input.settings as Partial<AppSettings> } : {}),
    });
    return { status: 201, body: { data: adminApp(app) }, audit: { resource: { type: 'app', id: app.id }, after: adminApp(app) } };
  });

export const handler = lambdaHandler(createHandler, adminProductionDeps);
