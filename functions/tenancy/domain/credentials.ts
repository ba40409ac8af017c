/**
 * Credentials of every kind (docs/design.md §4): at least 32 random characters behind a kind prefix, shown
 * once, stored only as a SHA-256 hash and looked up by it.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { OrgScope } from '../../kernel/domain/scopes';
import type { Micros } from '../../kernel/domain/time';

export type CredentialKind = 'org' | 'chat' | 'acp';

export const CREDENTIAL_PREFIX: Record<CredentialKind, string> = {
  org: 'svc_org_',
  chat: 'svc_chat_',
  acp: 'acp_',
};

/**
 * Random base62 characters after the prefix: 40 (~238 bits) for org and chat keys; 32 (~190 bits) for
 * ACP keys, whose format the spec fixes (`acp_` + 32 characters).
 */
export const CREDENTIAL_RANDOM_LENGTH: Record<CredentialKind, number> = { org: 40, chat: 40, acp: 32 };

export function hashCredential(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

/** What the platform keeps about a credential: never the raw value. */
export interface StoredCredential {
  readonly id: string;
  readonly kind: CredentialKind;
  readonly hash: string;
  readonly orgId: string;
  /** The app a chat or ACP key is bound to. */
  readonly appId?: string;
  readonly scopes: readonly OrgScope[];
  readonly name?: string;
  /** The first characters, to recognise a key in listings without revealing it. */
  readonly displayPrefix: string;
  readonly createdAtUs: Micros;
  readonly expiresAtUs?: Micros;
  readonly revokedAtUs?: Micros;
}

export type CredentialState = 'active' | 'revoked' | 'expired';

/** A key expires at its `expiresAt` instant: from then on it is refused. */
export function expiredAt(expiresAtUs: Micros | undefined, nowUs: Micros): boolean {
  return expiresAtUs !== undefined && expiresAtUs <= nowUs;
}

export function credentialState(cred: StoredCredential, nowUs: Micros): CredentialState {
  if (cred.revokedAtUs !== undefined) return 'revoked';
  if (expiredAt(cred.expiresAtUs, nowUs)) return 'expired';
  return 'active';
}

/** The bearer token of an Authorization header, or undefined when the header is absent or not Bearer. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return m?.[1];
}

/** Compares two secrets in constant time (their SHA-256 digests, so their lengths do not leak either). */
export function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
