/**
 * The request of area A's admin route (an org key with read scopes), keyed by route id: the handler
 * reads its input with it. Its `zod/mini` body keeps zod out of the public export functions' bundles,
 * which import export-requests.ts only.
 */
import * as z from 'zod/mini';
import { ORG_SCOPES } from '../../kernel/domain/scopes';
import { uuidPathId } from '../../kernel/http/request-declaration';
import { isoTimestamp, zodBody } from '../../kernel/http/validation';

export const orgKeyCreateBody = z.strictObject({
  scopes: z.array(z.enum(ORG_SCOPES as [string, ...string[]])).check(z.minLength(1)),
  expiresAt: z.optional(isoTimestamp),
  name: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
});

export const EXPORT_ADMIN_REQUESTS = {
  adminOrgKeyCreate: { path: { orgId: uuidPathId('orgId') }, body: zodBody(orgKeyCreateBody, { required: true }) },
};
