import { CREDENTIAL_PREFIX, CREDENTIAL_RANDOM_LENGTH, hashCredential, type CredentialKind, type StoredCredential } from '../domain/credentials';
import { badRequest, notFound } from '../../kernel/domain/errors';
import type { OrgScope } from '../../kernel/domain/scopes';
import type { KeyClass } from '../../kernel/domain/auth-messages';
import type { Micros } from '../../kernel/domain/time';
import type { AuditActor } from '../domain/audit';
import type { PlatformDeps } from './tenancy-ports';

export interface IssuedCredential {
  /** The raw key: returned exactly once, never stored. */
  readonly key: string;
  readonly credential: StoredCredential;
}

const KEY_CLASS_OF_KIND: Record<CredentialKind, KeyClass> = { org: 'orgKey', chat: 'chatKey', acp: 'acpKey' };

/** The admin API's caller, as a key's `createdBy` names it (the operator behind the admin token or IAM). */
export const ADMIN_OPERATOR: AuditActor = { kind: 'operator', id: 'admin' };

export interface IssueCredentialInput {
  readonly kind: CredentialKind;
  /** The org of an org key; for a chat or ACP key, optional, and then the app must be this org's. */
  readonly orgId?: string;
  readonly appId?: string;
  readonly scopes?: readonly OrgScope[];
  readonly expiresAtUs?: Micros;
  readonly name?: string;
  /** Who issues it, shown in the key list; keys issued without it list no creator. */
  readonly createdBy?: AuditActor;
}

/**
 * Issues a credential of any kind for an org (and, for chat and ACP keys, one of its apps): CSPRNG
 * characters behind the kind's prefix, stored only as its SHA-256 hash (docs/design.md §4). Its usage-plan
 * key is registered at the gateway first: a crash in between leaves a gateway key no credential uses
 * (harmless), never a credential the gateway refuses.
 */
export async function issueCredential(
  deps: Pick<PlatformDeps, 'orgs' | 'apps' | 'credentials' | 'ids' | 'clock' | 'apiKeys'>,
  input: IssueCredentialInput,
  /** A rotation's successor: the id it reserved beforehand and the key it replaces. */
  rotation?: { readonly id: string; readonly fromId: string },
): Promise<IssuedCredential> {
  const now = deps.clock.nowUs();
  let orgId = input.orgId;
  if (input.kind !== 'org') {
    const app = input.appId ? await deps.apps.get(input.appId) : undefined;
    // With an org as well (the console's org of the path), an app of another org is not found either.
    if (!app || app.deletedAtUs !== undefined || (input.orgId !== undefined && app.orgId !== input.orgId)) throw notFound('App not found');
    orgId = app.orgId;
  }
  if (!orgId || !(await deps.orgs.get(orgId))) throw notFound('Org not found');
  const scopes = input.kind === 'org' ? [...new Set(input.scopes ?? [])] : [];
  if (input.kind === 'org' && scopes.length === 0) throw badRequest('Invalid scopes: an org key needs at least one scope');
  if (input.expiresAtUs !== undefined && input.expiresAtUs <= now) throw badRequest('Invalid expiresAt: must be in the future');
  const key = CREDENTIAL_PREFIX[input.kind] + deps.ids.secret(CREDENTIAL_RANDOM_LENGTH[input.kind]);
  const credential: StoredCredential = {
    id: rotation?.id ?? deps.ids.uuid(),
    kind: input.kind,
    hash: hashCredential(key),
    orgId,
    ...(input.kind !== 'org' ? { appId: input.appId } : {}),
    scopes,
    ...(input.name ? { name: input.name } : {}),
    displayPrefix: key.slice(0, CREDENTIAL_PREFIX[input.kind].length + 4),
    createdAtUs: now,
    ...(input.expiresAtUs !== undefined ? { expiresAtUs: input.expiresAtUs } : {}),
    ...(input.createdBy ? { createdBy: { ...input.createdBy } } : {}),
    ...(rotation ? { rotatedFromId: rotation.fromId } : {}),
  };
  await deps.apiKeys.register({ id: credential.id, keyClass: KEY_CLASS_OF_KIND[credential.kind] });
  await deps.credentials.create(credential);
  return { key, credential };
}

/**
 * Revokes a credential at once; revoking twice is harmless. The record is revoked first (every
 * uncached request is refused from then on), then the gateway forgets its cached authorizations and
 * the key's usage-plan key; if that step fails the call fails too, and a retry completes it. With
 * `orgId` (the console), a key of another org is not found.
 */
export async function revokeCredential(
  deps: Pick<PlatformDeps, 'credentials' | 'clock' | 'apiKeys'>,
  input: { keyId: string; orgId?: string },
): Promise<StoredCredential> {
  if (input.orgId !== undefined && (await deps.credentials.getById(input.keyId))?.orgId !== input.orgId) throw notFound('Key not found');
  const revoked = await deps.credentials.revoke(input.keyId, deps.clock.nowUs());
  if (!revoked) throw notFound('Key not found');
  await deps.apiKeys.unregister({ id: revoked.id });
  return revoked;
}
