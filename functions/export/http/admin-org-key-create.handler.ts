import * as z from 'zod/mini';
import { issueCredential } from '../../platform/app/issue-credential';
import { ORG_SCOPES } from '../../platform/domain/scopes';
import { adminCredential } from '../../platform/http/admin-presenters';
import { httpRoute } from '../../platform/http/kit';
import { lambdaHandler } from '../../platform/http/lambda';
import { isoTimestamp, parseWith } from '../../platform/http/validation';
import { adminKeysProductionDeps, type AdminKeysDeps } from '../../platform/wiring/admin-keys-wiring';
import { EXPORT_ROUTES } from '../export-routes';

const body = z.strictObject({
  scopes: z.array(z.enum(ORG_SCOPES as [string, ...string[]])).check(z.minLength(1)),
  expiresAt: z.optional(isoTimestamp),
  name: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
});

/** POST /admin/v1/orgs/{orgId}/keys: an org key (`svc_org_…`) with read scopes; the key is shown once. */
export const createHandler = (deps: AdminKeysDeps) =>
  httpRoute(EXPORT_ROUTES.adminOrgKeyCreate, deps, async (req) => {
    const input = parseWith(body, req.jsonBody());
    const issued = await issueCredential(deps, {
      kind: 'org',
      orgId: req.path.orgId,
      scopes: input.scopes as (typeof ORG_SCOPES)[number][],
      ...(input.expiresAt !== undefined ? { expiresAtUs: input.expiresAt } : {}),
      ...(input.name ? { name: input.name } : {}),
    });
    return { status: 201, body: { data: adminCredential(issued.credential, issued.key) } };
  });

export const handler = lambdaHandler(createHandler, adminKeysProductionDeps);
