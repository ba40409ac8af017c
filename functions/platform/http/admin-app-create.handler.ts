import { createApp } from '../app/manage-apps';
import type { AppSettings } from '../domain/app';
import { httpRoute } from './kit';
import { readRequest } from './request-declaration';
import { ADMIN_REQUESTS } from '../openapi/tenancy-admin-requests';
import { lambdaHandler } from './lambda';
import { adminApp } from './admin-presenters';
import { adminProductionDeps, type AdminBaseDeps } from '../wiring/admin-wiring';
import { PLATFORM_ROUTES } from '../platform-routes';

/** POST /admin/v1/orgs/{orgId}/apps: creates an app; the response carries its `appNameId`. */
export const createHandler = (deps: AdminBaseDeps) =>
  httpRoute(PLATFORM_ROUTES.adminAppCreate, deps, async (req) => {
    const { path, body: input } = await readRequest(ADMIN_REQUESTS.adminAppCreate, req);
    const app = await createApp(deps, {
      orgId: path.orgId,
      name: input.name,
      ...(input.slug !== undefined ? { slug: input.slug } : {}),
      ...(input.settings ? { settings: input.settings as Partial<AppSettings> } : {}),
    });
    return { status: 201, body: { data: adminApp(app) } };
  });

export const handler = lambdaHandler(createHandler, adminProductionDeps);
