import * as z from 'zod/mini';
import { issueCredential } from '../../platform/app/issue-credential';
import { adminCredential } from '../../platform/http/admin-presenters';
import { httpRoute } from '../../platform/http/kit';
import { lambdaHandler } from '../../platform/http/lambda';
import { isoTimestamp, parseWith } from '../../platform/http/validation';
import { adminKeysProductionDeps, type AdminKeysDeps } from '../../platform/wiring/admin-keys-wiring';
import { ACP_ROUTES } from '../acp-routes';

const body = z.strictObject({ name: z.optional(z.string().check(z.minLength(1), z.maxLength(200))), expiresAt: z.optional(isoTimestamp) });

/** POST /admin/v1/apps/{appId}/acp-keys: an ACP key (`acp_` + 32 characters) bound to the app; shown once. */
export const createHandler = (deps: AdminKeysDeps) =>
  httpRoute(ACP_ROUTES.adminAcpKeyCreate, deps, async (req) => {
    const input = parseWith(body, req.textBody().trim() ? req.jsonBody() : {});
    const issued = await issueCredential(deps, {
      kind: 'acp',
      appId: req.path.appId,
      ...(input.expiresAt !== undefined ? { expiresAtUs: input.expiresAt } : {}),
      ...(input.name ? { name: input.name } : {}),
    });
    return { status: 201, body: { data: adminCredential(issued.credential, issued.key) } };
  });

export const handler = lambdaHandler(createHandler, adminKeysProductionDeps);
