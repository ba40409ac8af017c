import * as z from 'zod';
import { addCredits } from '../app/manage-credits';
import { httpRoute } from './kit';
import { lambdaHandler } from './lambda';
import { parseWith } from './validation';
import { adminProductionDeps, type AdminFunctionDeps } from '../wiring/admin-wiring';

const body = z.object({ amountUsd: z.string().min(1).max(32) }).strict();

/** POST /admin/v1/orgs/{orgId}/credits: adds prepaid credits; answers the new balance. */
export const createHandler = (deps: AdminFunctionDeps) =>
  httpRoute('adminOrgCreditsAdd', deps, async (req) => {
    const input = parseWith(body, req.jsonBody());
    return { status: 200, body: { data: await addCredits(deps, { orgId: req.path.orgId ?? '', amountUsd: input.amountUsd }) } };
  });

export const handler = lambdaHandler(createHandler, adminProductionDeps);
