import { updateApp } from '../app/manage-apps';
import type { AppSettings } from '../domain/app';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ADMIN_REQUESTS } from '../openapi/tenancy-admin-requests';
import { adminApp } from './admin-presenters';
import { adminProductionDeps, type AdminBaseDeps } from '../wiring/admin-wiring';
import { TENANCY_ROUTES } from '../tenancy-routes';

/** PATCH /admin/v1/apps/{appId}: renames an app or merges new settings over its current ones. */
export const createHandler = (deps: AdminBaseDeps) =>
  httpRoute(TENANCY_ROUTES.adminAppUpdate, deps, async (req) => {
    const { path, body: input } = await readRequest(ADMIN_REQUESTS.adminAppUpdate, req);
    const app = await updateApp(deps, {
      appId: path.appId,
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.settings ? { settings: input.settings as Partial<AppSettings> } : {}),
    });
    return { status: 200, body: { data: adminApp(app) }, audit: { orgId: app.orgId, after: adminApp(app) } };
  });

export const handler = lambdaHandler(createHandler, adminProductionDeps);
