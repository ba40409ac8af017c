/**
 * Wire shapes of an org's keys for the console (camelCase as the admin API's, ISO 8601 timestamps, unset fields as
 * null): the key list, and a key just issued or rotated, the one answer that carries its raw value.
 * The hash is never shown: it finds a key as well as the key does.
 */
import type { AuditActor } from '../domain/audit';
import { credentialState, type ListedCredential } from '../domain/credentials';
import type { CredentialPage } from '../app/tenancy-ports';
import type { IssuedCredential } from '../app/issue-credential';
import type { RotatedCredential } from '../app/rotate-credential';
import { microsToIso, type Micros } from '../../kernel/domain/time';

const isoOrNull = (us: Micros | undefined) => (us !== undefined ? microsToIso(us) : null);

function actorView(actor: AuditActor) {
  return { kind: actor.kind, id: actor.id, email: actor.email ?? null };
}

/** One key as the list shows it; `state` is `active`, `expired` or `revoked` at `nowUs`. */
export function keyView(cred: ListedCredential, nowUs: Micros) {
  return {
    id: cred.id,
    kind: cred.kind,
    prefix: cred.displayPrefix,
    name: cred.name ?? null,
    scopes: [...cred.scopes],
    appId: cred.appId ?? null,
    createdAt: microsToIso(cred.createdAtUs),
    createdBy: cred.createdBy ? actorView(cred.createdBy) : null,
    expiresAt: isoOrNull(cred.expiresAtUs),
    lastUsedAt: isoOrNull(cred.lastUsedAtUs),
    revoked: cred.revokedAtUs !== undefined,
    revokedAt: isoOrNull(cred.revokedAtUs),
    state: credentialState(cred, nowUs),
    rotatedFromId: cred.rotatedFromId ?? null,
    rotatedToId: cred.rotatedToId ?? null,
  };
}

export type KeyView = ReturnType<typeof keyView>;

/** A page of the key list: `nextCursor` (null on the last page) reads the next one. */
export function keyListView(page: CredentialPage, nowUs: Micros) {
  return { data: page.credentials.map((c) => keyView(c, nowUs)), nextCursor: page.cursor ?? null };
}

/** A key just issued: its list view and, this once, the raw `key`. */
export function issuedKeyView(issued: IssuedCredential, nowUs: Micros) {
  return { ...keyView(issued.credential, nowUs), key: issued.key };
}

/** A rotation's answer: the new key (raw value shown once) and the old one as it stands now. */
export function rotatedKeyView(rotated: RotatedCredential, nowUs: Micros) {
  return { successor: issuedKeyView(rotated, nowUs), previous: keyView(rotated.previous, nowUs) };
}
