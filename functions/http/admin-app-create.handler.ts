import * as z from 'zod';
import { createApp } from '../app/manage-apps';
import type { AppSettings } from '../domain/app';
import { httpRoute } from './kit';
import { lambdaHandler } from './lambda';
import { adminApp } from './presenters';
import { appSettingsPatch, parseWith } from './validation';
import { adminProductionDeps, type AdminFunctionDeps } from '../wiring/admin-wiring';

const body = z.object({ name: z.string().min(1).max(200), slug: z.string().min(1).max(48).optional(), settings: appSettingsPatch.optional() }).strict();

/** POST /admin/v1/orgs/{orgId}/apps: creates an app; the response carries its `appNameId`. */
export const createHandler = (deps: AdminFunctionDeps) =>
  httpRoute('adminAppCreate', deps, async (req) => {
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
