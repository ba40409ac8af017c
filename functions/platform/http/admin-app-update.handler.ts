import * as z from 'zod/mini';
import { updateApp } from '../app/manage-apps';
import type { AppSettings } from '../domain/app';
import { httpRoute } from './kit';
import { lambdaHandler } from './lambda';
import { adminApp } from './admin-presenters';
import { appSettingsPatch } from './app-settings-validation';
import { parseWith } from './validation';
import { adminProductionDeps, type AdminBaseDeps } from '../wiring/admin-wiring';
import { PLATFORM_ROUTES } from '../platform-routes';

const body = z.strictObject({ name: z.optional(z.string().check(z.minLength(1), z.maxLength(200))), settings: z.optional(appSettingsPatch) });

/** PATCH /admin/v1/apps/{appId}: renames an app or merges new settings over its current ones. */
export const createHandler = (deps: AdminBaseDeps) =>
  httpRoute(PLATFORM_ROUTES.adminAppUpdate, deps, async (req) => {
    const input = parseWith(body, req.jsonBody());
    const app = await updateApp(deps, {
      appId: req.path.appId ?? '',
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.settings ? { settings: input.settings as Partial<AppSettings> } : {}),
    });
    return { status: 200, body: { data: adminApp(app) } };
  });

export const handler = lambdaHandler(createHandler, adminProductionDeps);
