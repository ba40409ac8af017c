/**
 * Invitations to an org, by e-mail and role. The token is shown once to whoever invites (to pass on),
 * stored only as its SHA-256 hash like an API key, and works once: for a signed-in person whose
 * verified e-mail is the invited one, before it expires and unless it was revoked.
 */
import type { Micros } from '../../kernel/domain/time';
import type { Role } from './roles';

export const INVITATION_TOKEN_PREFIX = 'inv_';
/** CSPRNG base62 characters after the prefix (~238 bits), as many as an org key has. */
export const INVITATION_TOKEN_LENGTH = 40;
export const INVITATION_TTL_DAYS = 7;
export const MAX_INVITATION_TTL_DAYS = 30;
/** How long an invitation is kept after it expires, for the org's list and the audit trail to agree. */
export const INVITATION_KEEP_DAYS = 30;

export const DAY_US = 86_400_000_000;

export interface Invitation {
  readonly id: string;
  readonly orgId: string;
  /** Normalised (lower case). */
  readonly email: string;
  readonly role: Role;
  readonly tokenHash: string;
  /** The user key of the member, or the operator id, who invited. */
  readonly invitedBy: string;
  readonly createdAtUs: Micros;
  readonly expiresAtUs: Micros;
  readonly acceptedAtUs?: Micros;
  /** The user key of the person who accepted. */
  readonly acceptedBy?: string;
  readonly revokedAtUs?: Micros;
}

export type InvitationState = 'pending' | 'accepted' | 'revoked' | 'expired';

export function invitationState(inv: Invitation, nowUs: Micros): InvitationState {
  if (inv.acceptedAtUs !== undefined) return 'accepted';
  if (inv.revokedAtUs !== undefined) return 'revoked';
  if (inv.expiresAtUs <= nowUs) return 'expired';
  return 'pending';
}
