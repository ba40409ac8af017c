/**
 * What a key authorizer learned about a bearer key, as it travels from the authorizer to the function
 * in the request context (API Gateway passes authorizer context values as strings). The function trusts
 * it because only the gateway can set it, and re-checks the one thing a cached grant can outlive: expiry.
 */
import type { KeyClass } from '../../kernel/domain/auth-messages';
import { expiredAt, type CredentialKind, type StoredCredential } from './credentials';
import { isOrgScope, type OrgScope } from '../../kernel/domain/scopes';
import type { Micros } from '../../kernel/domain/time';

export interface KeyGrant {
  readonly keyClass: KeyClass;
  readonly keyId: string;
  readonly orgId: string;
  /** The app a chat or ACP key is bound to. */
  readonly appId?: string;
  readonly scopes: readonly OrgScope[];
  readonly expiresAtUs?: Micros;
}

export const CREDENTIAL_KIND_OF: Record<KeyClass, CredentialKind> = { orgKey: 'org', chatKey: 'chat', acpKey: 'acp' };

export function grantOf(keyClass: KeyClass, cred: StoredCredential): KeyGrant {
  return {
    keyClass,
    keyId: cred.id,
    orgId: cred.orgId,
    ...(cred.appId !== undefined ? { appId: cred.appId } : {}),
    scopes: cred.scopes,
    ...(cred.expiresAtUs !== undefined ? { expiresAtUs: cred.expiresAtUs } : {}),
  };
}

/** The grant as authorizer context: flat string values only. */
export function grantToContext(grant: KeyGrant): Record<string, string> {
  return {
    keyClass: grant.keyClass,
    keyId: grant.keyId,
    orgId: grant.orgId,
    appId: grant.appId ?? '',
    scopes: grant.scopes.join(','),
    expiresAtUs: grant.expiresAtUs !== undefined ? String(grant.expiresAtUs) : '',
  };
}

const KEY_CLASSES: readonly string[] = ['orgKey', 'chatKey', 'acpKey'] satisfies readonly KeyClass[];

/** The grant an authorizer put in the request context, or undefined when none did (or it is not one). */
export function grantFromContext(context: unknown): KeyGrant | undefined {
  if (typeof context !== 'object' || context === null) return undefined;
  const c = context as Record<string, unknown>;
  const str = (k: string) => (c[k] === undefined || c[k] === null ? '' : String(c[k]));
  const keyClass = str('keyClass');
  if (!KEY_CLASSES.includes(keyClass) || !str('keyId') || !str('orgId')) return undefined;
  const expires = str('expiresAtUs');
  return {
    keyClass: keyClass as KeyClass,
    keyId: str('keyId'),
    orgId: str('orgId'),
    ...(str('appId') ? { appId: str('appId') } : {}),
    scopes: str('scopes').split(',').filter(isOrgScope),
    ...(expires && Number.isFinite(Number(expires)) ? { expiresAtUs: Number(expires) } : {}),
  };
}

/** A grant is as good as its key at `nowUs`, except for revocation (which flushes the gateway's cache). */
export function grantExpired(grant: KeyGrant, nowUs: Micros): boolean {
  return expiredAt(grant.expiresAtUs, nowUs);
}
