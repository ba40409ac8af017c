import { badRequest, DomainError, notFound } from '../../kernel/domain/errors';
import type { AuditActor } from '../domain/audit';
import { credentialState, expiryAfterGrace, ROTATION_GRACE_MAX_SECONDS, type StoredCredential } from '../domain/credentials';
import { issueCredential, type IssuedCredential } from './issue-credential';
import type { PlatformDeps } from './tenancy-ports';

export interface RotatedCredential extends IssuedCredential {
  /** The key it replaced: revoked, or expiring at the grace period's end. */
  readonly previous: StoredCredential;
}

type RotateDeps = Pick<PlatformDeps, 'orgs' | 'apps' | 'credentials' | 'ids' | 'clock' | 'apiKeys'>;

const raced = () => new DomainError('conflict', 'Key was revoked or rotated meanwhile');

/**
 * Replaces an active key with a new one of the same kind, name, scopes, app and expiry (its raw value
 * shown once), and revokes the old one at once or, with `graceSeconds` (up to a day), lets it expire
 * then (sooner if it expired sooner anyway). A key is rotated once; its successor can be rotated next.
 *
 * The writes, in order: the old key names a pending successor id; the successor is issued under that
 * id (gateway key first, as any issue); the old key records its successor and is revoked or
 * shortened, in one conditional write that holds only while its successor is still the pending one;
 * then the gateway forgets it. A crash before that last record write leaves the old key valid, the
 * caller's key; a retry displaces the pending successor (whose secret nobody saw) and revokes it. A
 * crash after it leaves the successor valid; a retry finds the key rotated, completes the gateway
 * step and answers 409 naming the successor. Two rotations at once: the later pending one wins and the
 * other revokes its own successor and answers 409.
 */
export async function rotateCredential(
  deps: RotateDeps,
  input: { keyId: string; orgId?: string; graceSeconds?: number; createdBy?: AuditActor },
): Promise<RotatedCredential> {
  const grace = input.graceSeconds ?? 0;
  if (!Number.isInteger(grace) || grace < 0 || grace > ROTATION_GRACE_MAX_SECONDS) {
    throw badRequest(`Invalid graceSeconds: must be a whole number from 0 to ${ROTATION_GRACE_MAX_SECONDS}`);
  }
  const old = await deps.credentials.getById(input.keyId);
  if (!old || (input.orgId !== undefined && old.orgId !== input.orgId)) throw notFound('Key not found');
  if (old.rotatedToId !== undefined) {
    await settleAtGateway(deps, old);
    throw new DomainError('conflict', `Key was rotated already: its successor is ${old.rotatedToId}`);
  }
  const state = credentialState(old, deps.clock.nowUs());
  if (state !== 'active') throw new DomainError('conflict', `Key is ${state}: issue a new one instead`);

  const successorId = deps.ids.uuid();
  const begun = await deps.credentials.beginRotation(old.id, successorId);
  if (!begun) throw raced();
  if (begun.displaced !== undefined) await discard(deps, begun.displaced);
  const issued = await issueCredential(
    deps,
    {
      kind: old.kind,
      ...(old.kind === 'org' ? { orgId: old.orgId, scopes: old.scopes } : { appId: old.appId }),
      ...(old.expiresAtUs !== undefined ? { expiresAtUs: old.expiresAtUs } : {}),
      ...(old.name !== undefined ? { name: old.name } : {}),
      ...(input.createdBy ? { createdBy: input.createdBy } : {}),
    },
    { id: successorId, fromId: old.id },
  );
  const now = deps.clock.nowUs();
  const end = grace === 0 ? { revokedAtUs: now } : { expiresAtUs: expiryAfterGrace(old.expiresAtUs, now, grace) };
  const previous = await deps.credentials.completeRotation(old.id, successorId, end);
  if (!previous) {
    await discard(deps, successorId);
    throw raced();
  }
  await settleAtGateway(deps, previous);
  return { ...issued, previous };
}

/** A revoked key leaves the gateway; a shortened one only leaves its cache, so its new expiry holds at once. */
async function settleAtGateway(deps: RotateDeps, previous: StoredCredential): Promise<void> {
  if (previous.revokedAtUs !== undefined) await deps.apiKeys.unregister({ id: previous.id });
  else await deps.apiKeys.forgetAuthorizations();
}

/** Revokes a successor nobody was shown (its creation may not have completed: the gateway key goes either way). */
async function discard(deps: RotateDeps, id: string): Promise<void> {
  await deps.credentials.revoke(id, deps.clock.nowUs());
  await deps.apiKeys.unregister({ id });
}
