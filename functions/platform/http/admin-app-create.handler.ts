import * as z from 'zod/mini';
import { createApp } from '../app/manage-apps';
import type { AppSettings } from '../domain/app';
import { httpRoute } from './kit';
import { lambdaHandler } from './lambda';
import { adminApp } from './admin-presenters';
import { appSettingsPatch } from './app-settings-validation';
import { parseWith } from './validation';
import { adminProductionDeps, type AdminBaseDeps } from '../wiring/admin-wiring';
import { PLATFORM_ROUTES } from '../platform-routes';

const body = z.strictObject({
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  slug: z.optional(z.string().check(z.minLength(1), z.maxLength(48))),
  settings: z.optional(appSettingsPatch),
});

/** POST /admin/v1/orgs/{orgId}/apps: creates an app; the response carries its `appNameId`. */
export const createHandler = (deps: AdminBaseDeps) =>
  httpRoute(PLATFORM_ROUTES.adminAppCreate, deps, async (req) => {
    const input = parseWith(body, req.jsonBody());
    const app = await createApp(deps, {
      orgId: req.path.orgId ?? '',
      name: input.name,
      ...(input.slug !== undefined ? { slug: input.slug } : {}),
      ...(input.settings ? { settings: input.settings as Partial<AppSettings> } : {}),
    });
    return { status: 201, body: { data: adminApp(app) } };
  });

export const handler = lambdaHandler(createHandler, adminProductionDeps);
