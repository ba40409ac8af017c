/**
 * The audit log: one record per change to an org, from the console or the admin API: who, what, on
 * which resource, when, from where, and the resource before and after where no secret is in it.
 */
import type { Micros } from '../../kernel/domain/time';

/** Records are kept this long, then DynamoDB's TTL removes them (about 13 months: a year and a margin). */
export const AUDIT_RETENTION_DAYS = 400;

/** Records per page of the log: by default, and at most. */
export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;

export interface AuditActor {
  readonly kind: 'member' | 'operator';
  /** A member's user key, or the operator's identity (the admin token's name, an IAM principal). */
  readonly id: string;
  readonly email?: string;
}

export interface AuditRecord {
  readonly id: string;
  readonly orgId: string;
  readonly at: Micros;
  readonly actor: AuditActor;
  /** `<resource>.<verb>`: `member.role_change`, `invitation.create`, `key.create`. */
  readonly action: string;
  readonly resource: { readonly type: string; readonly id: string };
  readonly ip: string;
  readonly userAgent: string;
  readonly before?: Readonly<Record<string, unknown>>;
  readonly after?: Readonly<Record<string, unknown>>;
}

/** Field names whose values are secrets or stand for one (a hash finds a key as well as the key does). */
const SECRET_FIELD = /^(key|hash|.*(secret|token|password|passphrase|credential|cookie|authorization|apikey|privatekey)s?|.*hash)$/i;

export function isSecretField(name: string): boolean {
  return SECRET_FIELD.test(name.replace(/[-_]/g, ''));
}

/** A copy of `value` without any field `isSecretField` names, at any depth; what an audit record may hold. */
export function withoutSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => withoutSecrets(v)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!isSecretField(k) && v !== undefined) out[k] = withoutSecrets(v);
  return out as T;
}

/** Epoch seconds at which the record's items expire (the table's TTL attribute). */
export function auditExpiry(atUs: Micros): number {
  return Math.ceil(atUs / 1_000_000) + AUDIT_RETENTION_DAYS * 86_400;
}
