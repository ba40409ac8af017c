/** The members page's answers, and which changes to a membership the caller's role may make (the server's rule, shown up front). */
import type { OrgMembership } from '../api-client';

export const ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export interface Member {
  /** The person's user key: the member's id in paths and the audit log's actor id. */
  readonly id: string;
  readonly email: string;
  readonly role: Role;
  readonly joinedAt: string;
}

export interface Invitation {
  readonly id: string;
  readonly email: string;
  readonly role: Role;
  readonly state: 'pending' | 'accepted' | 'revoked' | 'expired';
  readonly invitedBy: string;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly acceptedAt: string | null;
}

export interface IssuedInvitation extends Invitation {
  readonly token: string;
  readonly link: string;
}

/** Why the caller may not change or remove `member` (beyond the permission), or undefined when they may. */
export function membershipRefusal(org: OrgMembership, member: Member, owners: number): string | undefined {
  if (member.role !== 'owner') return undefined;
  if (org.role !== 'owner') return 'Only an owner may change or remove an owner.';
  if (owners <= 1) return 'The organisation keeps at least one owner: make another member owner first.';
  return undefined;
}

/** The roles the caller may grant: only an owner grants the owner role. */
export const grantableRoles = (org: OrgMembership): readonly Role[] => (org.role === 'owner' ? ROLES : ROLES.filter((r) => r !== 'owner'));

export const shortDate = (iso: string): string => `${new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC`;
