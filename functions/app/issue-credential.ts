import {
  CREDENTIAL_PREFIX,
  CREDENTIAL_RANDOM_LENGTH,
  hashCredential,
  type CredentialKind,
  type StoredCredential,
} from '../domain/credentials';
import { badRequest, notFound } from '../domain/errors';
import type { OrgScope } from '../domain/scopes';
import type { Micros } from '../domain/time';
import type { Deps } from '../ports/deps';

export interface IssuedCredential {
  /** The raw key: returned exactly once, never stored. */
  readonly key: string;
  readonly credential: StoredCredential;
}

/**
 * Issues a credential of any kind for an org (and, for chat and ACP keys, one of its apps): CSPRNG
 * characters behind the kind's prefix, stored only as its SHA-256 hash (DESIGN.md §4).
 */
export async function issueCredential(
  deps: Pick<Deps, 'orgs' | 'apps' | 'credentials' | 'ids' | 'clock'>,
  input: { kind: CredentialKind; orgId?: string; appId?: string; scopes?: readonly OrgScope[]; expiresAtUs?: Micros; name?: string },
): Promise<IssuedCredential> {
  const now = deps.clock.nowUs();
  let orgId = input.orgId;
  if (input.kind !== 'org') {
    const app = input.appId ? await deps.apps.get(input.appId) : undefined;
    if (!app || app.deletedAtUs !== undefined) throw notFound('App not found');
    orgId = app.orgId;
  }
  if (!orgId || !(await deps.orgs.get(orgId))) throw notFound('Org not found');
  const scopes = input.kind === 'org' ? [...new Set(input.scopes ?? [])] : [];
  if (input.kind === 'org' && scopes.length === 0) throw badRequest('Invalid scopes: an org key needs at least one scope');
  if (input.expiresAtUs !== undefined && input.expiresAtUs <= now) throw badRequest('Invalid expiresAt: must be in the future');
  const key = CREDENTIAL_PREFIX[input.kind] + deps.ids.secret(CREDENTIAL_RANDOM_LENGTH);
  const credential: StoredCredential = {
    id: deps.ids.uuid(),
    kind: input.kind,
    hash: hashCredential(key),
    orgId,
    ...(input.kind !== 'org' ? { appId: input.appId } : {}),
    scopes,
    ...(input.name ? { name: input.name } : {}),
    displayPrefix: key.slice(0, CREDENTIAL_PREFIX[input.kind].length + 4),
    createdAtUs: now,
    ...(input.expiresAtUs !== undefined ? { expiresAtUs: input.expiresAtUs } : {}),
  };
  await deps.credentials.create(credential);
  return { key, credential };
}

/** Revokes a credential at once; revoking twice is harmless. */
export async function revokeCredential(deps: Pick<Deps, 'credentials' | 'clock'>, input: { keyId: string }): Promise<StoredCredential> {
  const revoked = await deps.credentials.revoke(input.keyId, deps.clock.nowUs());
  if (!revoked) throw notFound('Key not found');
  return revoked;
}
