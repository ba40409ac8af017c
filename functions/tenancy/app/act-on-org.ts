/**
 * Who acts on an org and what the audit log says they did. A member's role is read from the
 * platform's own data on every call (never taken from the caller), and checked against the one
 * permission table; an operator, through the admin API, has every power.
 */
import { DomainError, notFound } from '../../kernel/domain/errors';
import { withoutSecrets, type AuditActor, type AuditRecord } from '../domain/audit';
import { can, type Authority, type Permission } from '../domain/roles';
import type { MembersDeps } from './members-ports';
import type { AuditTrail } from '../../kernel/app/audit-trail-ports';

export type ActorRef = { readonly kind: 'member'; readonly userKey: string } | { readonly kind: 'operator'; readonly id: string };

/** Where a request came from, as the audit log records it. */
export interface RequestOrigin {
  readonly ip: string;
  readonly userAgent: string;
}

/** The caller of a use case that changes an org: who, and from where. */
export interface Acting {
  readonly by: ActorRef;
  readonly origin: RequestOrigin;
}

export interface ActingAuthority {
  readonly authority: Authority;
  readonly actor: AuditActor;
}

/**
 * The actor's authority in `orgId` if it may `permission` there. Someone who is not a member learns
 * nothing of the org (404, as for an org that does not exist); a member without the permission gets 403.
 */
export async function authorize(deps: Pick<MembersDeps, 'members'>, orgId: string, by: ActorRef, permission: Permission): Promise<ActingAuthority> {
  if (by.kind === 'operator') return { authority: 'operator', actor: { kind: 'operator', id: by.id } };
  const member = await deps.members.get(orgId, by.userKey);
  if (!member) throw notFound('Org not found');
  if (!can(member.role, permission)) throw forbidden(`Your role (${member.role}) may not do this: ${permission}`);
  return { authority: member.role, actor: { kind: 'member', id: member.userKey, email: member.email } };
}

export const forbidden = (message: string): DomainError => new DomainError('forbidden', message);
export const conflict = (message: string): DomainError => new DomainError('conflict', message);

/** Appends the record of a change; `before` and `after` lose every secret field first. */
export async function recordAudit(
  deps: Pick<MembersDeps, 'audit' | 'ids' | 'clock'>,
  who: { readonly actor: AuditActor; readonly origin: RequestOrigin },
  entry: Pick<AuditRecord, 'orgId' | 'action' | 'resource'> & { readonly before?: object; readonly after?: object },
): Promise<AuditRecord> {
  const record: AuditRecord = {
    id: deps.ids.uuid(),
    orgId: entry.orgId,
    at: deps.clock.nowUs(),
    actor: who.actor,
    action: entry.action,
    resource: entry.resource,
    ip: who.origin.ip,
    userAgent: who.origin.userAgent,
    ...(entry.before ? { before: withoutSecrets({ ...entry.before }) } : {}),
    ...(entry.after ? { after: withoutSecrets({ ...entry.after }) } : {}),
  };
  await deps.audit.append(record);
  return record;
}

/** The kit's audit trail, answered by the audit log: each change of a console or admin caller, secrets stripped. */
export function auditTrailOf(deps: Pick<MembersDeps, 'audit' | 'ids' | 'clock'>): AuditTrail {
  return {
    record: async (entry) => {
      await recordAudit(deps, { actor: entry.actor, origin: { ip: entry.ip, userAgent: entry.userAgent } }, entry);
    },
  };
}
