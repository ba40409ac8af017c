/**
 * People and their memberships. A person is who the identity provider says signed in: an issuer and
 * a subject, with an e-mail address the provider has verified. The platform keys a person by a digest
 * of the pair, so any OIDC issuer works and a subject reused by another issuer is another person.
 */
import { createHash } from 'node:crypto';
import type { Micros } from '../../kernel/domain/time';
import type { Role } from './roles';

export interface VerifiedIdentity {
  readonly issuer: string;
  readonly subject: string;
  readonly email: string;
  readonly emailVerified: boolean;
}

/** What the platform remembers of a person after the first sign-in. */
export interface Person {
  readonly userKey: string;
  readonly issuer: string;
  readonly subject: string;
  readonly email: string;
  readonly firstSignInAtUs: Micros;
  /** The org the first sign-in created for them, while that bootstrap may still be unfinished. */
  readonly personalOrgId?: string;
  /** The first sign-in is complete: later sign-ins never create an org. */
  readonly settled: boolean;
}

export interface Member {
  readonly orgId: string;
  readonly userKey: string;
  readonly email: string;
  readonly role: Role;
  readonly joinedAtUs: Micros;
}

/** `usr_` and the base64url SHA-256 of issuer and subject: stable, opaque and the same length for every issuer. */
export function userKeyOf(identity: Pick<VerifiedIdentity, 'issuer' | 'subject'>): string {
  return `usr_${createHash('sha256').update(`${identity.issuer}\n${identity.subject}`, 'utf8').digest('base64url')}`;
}

/** E-mail addresses compare case-insensitively (as every mainstream provider treats them). */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A plausible single address: one `@`, no spaces, a dot in the domain; the provider verified the rest. */
export function isEmailAddress(email: string): boolean {
  return email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
}

/** The name of the org a first sign-in creates: the address's local part, which the person can rename. */
export function personalOrgName(email: string): string {
  return `${normaliseEmail(email).split('@')[0] || 'my'}'s organisation`;
}
