/**
 * Credentials of every kind (docs/design.md §4): at least 32 random characters behind a kind prefix, shown
 * once, stored only as a SHA-256 hash and looked up by it.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { OrgScope } from '../../kernel/domain/scopes';
import type { Micros } from '../../kernel/domain/time';
import type { AuditActor } from './audit';

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
  /** Who issued it; absent on keys issued before this was recorded. */
  readonly createdBy?: AuditActor;
  /** The key this one replaced, when a rotation issued it. */
  readonly rotatedFromId?: string;
  /** The key that replaced this one: set when its rotation completed, and a key is rotated only once. */
  readonly rotatedToId?: string;
}

/** A credential as the key list shows it: its record and when a request last used it (to the minute). */
export interface ListedCredential extends StoredCredential {
  readonly lastUsedAtUs?: Micros;
}

/** A key's last use is written at most this often. */
export const LAST_USED_INTERVAL_US: Micros = 60_000_000;

/** The longest a rotated key may keep working beside its successor. */
export const ROTATION_GRACE_MAX_SECONDS = 86_400;

/**
 * The expiry of a key rotated with a grace period: the grace period's end, unless the key expires
 * sooner anyway (a rotation never lengthens a key's life).
 */
export function expiryAfterGrace(expiresAtUs: Micros | undefined, nowUs: Micros, graceSeconds: number): Micros {
  const end = nowUs + graceSeconds * 1_000_000;
  return expiresAtUs !== undefined && expiresAtUs < end ? expiresAtUs : end;
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

/** Keys per page of an org's key list: by default, and at most. */
export const KEY_PAGE_DEFAULT = 50;
export const KEY_PAGE_MAX = 100;
