/** The audit log page's answers and the filters the console API takes. */

export interface AuditRecord {
  readonly id: string;
  readonly at: string;
  readonly actor: { readonly kind: 'member' | 'operator'; readonly id: string; readonly email: string | null };
  readonly action: string;
  readonly resource: { readonly type: string; readonly id: string };
  readonly ip: string;
  readonly userAgent: string;
  readonly before: Readonly<Record<string, unknown>> | null;
  readonly after: Readonly<Record<string, unknown>> | null;
}

export interface AuditFilters {
  /** A member's user key (the member's id), or the operator's id. */
  readonly actor: string;
  readonly action: string;
  readonly resourceType: string;
}

export const NO_FILTERS: AuditFilters = { actor: '', action: '', resourceType: '' };

/** The filters' shape on the wire: letters, digits, dot, dash or underscore (the API refuses others). */
export const WORD = '[A-Za-z0-9._\\-]{1,64}';

/** Actions and resource types the org's changes record, offered as suggestions (any other word is taken too). */
export const KNOWN_ACTIONS = ['invitation.create', 'invitation.accept', 'invitation.revoke', 'member.role_change', 'member.remove', 'org.create'];
export const KNOWN_RESOURCE_TYPES = ['member', 'invitation', 'org', 'app', 'key', 'session', 'consumer', 'export'];

export const at = (iso: string): string => `${new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' })} UTC`;
