import { createApp } from '../app/manage-apps';
import type { AppSettings } from '../domain/app';
import { httpRoute } from './kit';
import { lambdaHandler } from './lambda';
import { adminApp } from './admin-presenters';
import { parseWith } from './validation';
import { adminProductionDeps, type AdminBaseDeps } from '../wiring/admin-wiring';
import { APP_CREATE_BODY } from '../openapi/admin-requests';
import { PLATFORM_ROUTES } from '../platform-routes';

/** POST /admin/v1/orgs/{orgId}/apps: creates an app; the response carries its `appNameId`. */
export const createHandler = (deps: AdminBaseDeps) =>
  httpRoute(PLATFORM_ROUTES.adminAppCreate, deps, async (req) => {
    const input = parseWith(APP_CREATE_BODY, req.jsonBody());
    const app = await createApp(deps, {
      orgId: req.path.orgId ?? '',
      name: input.name,
      ...(input.slug !== undefined ? { slug: input.slug } : {}),
      ...(input.settings ? { settings: input.settings as Partial<AppSettings> } : {}),
    });
    return { status: 201, body: { data: adminApp(app) } };
  });

export const handler = lambdaHandler(createHandler, adminProductionDeps);
