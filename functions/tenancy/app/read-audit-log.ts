import { badRequest } from '../../kernel/domain/errors';
import { authorize, type Acting } from './act-on-org';
import { AUDIT_PAGE_DEFAULT, AUDIT_PAGE_MAX } from '../domain/audit';
import type { AuditFilter, AuditPage, MembersDeps } from './members-ports';

/** A page of the org's audit log, newest first, for owners, admins and operators. */
export async function listAuditRecords(
  deps: Pick<MembersDeps, 'members' | 'audit'>,
  input: { orgId: string; filter?: AuditFilter; limit?: number; cursor?: string } & Pick<Acting, 'by'>,
): Promise<AuditPage> {
  await authorize(deps, input.orgId, input.by, 'audit.read');
  const limit = input.limit ?? AUDIT_PAGE_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > AUDIT_PAGE_MAX) throw badRequest(`Invalid limit: must be from 1 to ${AUDIT_PAGE_MAX}`);
  return deps.audit.list(input.orgId, input.filter ?? {}, limit, input.cursor);
}
