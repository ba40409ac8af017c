import * as z from 'zod/mini';
import { createOrg } from '../app/create-org';
import { adminOrg } from './admin-presenters';
import { httpRoute } from './kit';
import { lambdaHandler } from './lambda';
import { parseWith } from './validation';
import { adminProductionDeps, type AdminBaseDeps } from '../wiring/admin-wiring';
import { PLATFORM_ROUTES } from '../platform-routes';

const body = z.strictObject({ name: z.string().check(z.minLength(1), z.maxLength(200)), plan: z.enum(['free', 'paid']) });

/** POST /admin/v1/orgs: creates an org on a plan. */
export const createHandler = (deps: AdminBaseDeps) =>
  httpRoute(PLATFORM_ROUTES.adminOrgCreate, deps, async (req) => {
    const input = parseWith(body, req.jsonBody());
    return { status: 201, body: { data: adminOrg(await createOrg(deps, input)) } };
  });

export const handler = lambdaHandler(createHandler, adminProductionDeps);
