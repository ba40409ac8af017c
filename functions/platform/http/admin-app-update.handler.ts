import { updateApp } from '../app/manage-apps';
import type { AppSettings } from '../domain/app';
import { httpRoute } from './kit';
import { lambdaHandler } from './lambda';
import { adminApp } from './admin-presenters';
import { parseWith } from './validation';
import { adminProductionDeps, type AdminBaseDeps } from '../wiring/admin-wiring';
import { APP_UPDATE_BODY } from '../openapi/admin-requests';
import { PLATFORM_ROUTES } from '../platform-routes';

/** PATCH /admin/v1/apps/{appId}: renames an app or merges new settings over its current ones. */
export const createHandler = (deps: AdminBaseDeps) =>
  httpRoute(PLATFORM_ROUTES.adminAppUpdate, deps, async (req) => {
    const input = parseWith(APP_UPDATE_BODY, req.jsonBody());
    const app = await updateApp(deps, {
      appId: req.path.appId ?? '',
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.settings ? { settings: input.settings as Partial<AppSettings> } : {}),
    });
    return { status: 200, body: { data: adminApp(app) } };
  });

export const handler = lambdaHandler(createHandler, adminProductionDeps);
