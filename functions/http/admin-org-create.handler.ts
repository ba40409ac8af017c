import * as z from 'zod';
import { createOrg } from '../app/create-org';
import { adminOrg } from './admin-presenters';
import { httpRoute } from './kit';
import { lambdaHandler } from './lambda';
import { parseWith } from './validation';
import { adminProductionDeps, type AdminFunctionDeps } from '../wiring/admin-wiring';

const body = z.object({ name: z.string().min(1).max(200), plan: z.enum(['free', 'paid']) }).strict();

/** POST /admin/v1/orgs: creates an org on a plan. */
export const createHandler = (deps: AdminFunctionDeps) =>
  httpRoute('adminOrgCreate', deps, async (req) => {
    const input = parseWith(body, req.jsonBody());
    return { status: 201, body: { data: adminOrg(await createOrg(deps, input)) } };
  });

export const handler = lambdaHandler(createHandler, adminProductionDeps);
