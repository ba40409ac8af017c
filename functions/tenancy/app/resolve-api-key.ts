import { EXPIRED_KEY_MESSAGE, INVALID_KEY_MESSAGE, MISSING_KEY_MESSAGE, type KeyClass } from '../../kernel/domain/auth-messages';
import { bearerToken, credentialState, hashCredential, CREDENTIAL_PREFIX } from '../domain/credentials';
import { DomainError } from '../../kernel/domain/errors';
import { CREDENTIAL_KIND_OF, grantExpired, grantOf, type KeyGrant } from '../domain/key-grant';
import type { PlatformDeps } from './tenancy-ports';

/**
 * Resolves the bearer key of a request to an API whose keys are of `keyClass`: the work of the key
 * authorizers (functions/tenancy/authorizers), and of a function reached with no authorizer in front of it.
 * Missing, malformed, of another class, unknown or revoked: 401 `unauthorized`; expired: 401 `expired`.
 * Nothing about the key's app or org is checked here: a grant is cached by the gateway, and those
 * change without touching the key, so the functions check them on every request.
 */
export async function resolveApiKey(
  deps: Pick<PlatformDeps, 'credentials' | 'clock'>,
  input: { keyClass: KeyClass; authorization: string | undefined },
): Promise<KeyGrant> {
  const kind = CREDENTIAL_KIND_OF[input.keyClass];
  const token = bearerToken(input.authorization);
  if (!token) throw new DomainError('unauthorized', MISSING_KEY_MESSAGE[input.keyClass]);
  if (!token.startsWith(CREDENTIAL_PREFIX[kind])) throw new DomainError('unauthorized', INVALID_KEY_MESSAGE);
  const cred = await deps.credentials.findByHash(hashCredential(token));
  if (!cred || cred.kind !== kind || (kind !== 'org' && !cred.appId)) throw new DomainError('unauthorized', INVALID_KEY_MESSAGE);
  const state = credentialState(cred, deps.clock.nowUs());
  if (state === 'revoked') throw new DomainError('unauthorized', INVALID_KEY_MESSAGE);
  if (state === 'expired') throw new DomainError('expired', EXPIRED_KEY_MESSAGE);
  return grantOf(input.keyClass, cred);
}

/** A grant from the gateway's cache may have outlived its key's expiry: 401 `expired` then. */
export function requireUnexpired(deps: Pick<PlatformDeps, 'clock'>, grant: KeyGrant): KeyGrant {
  if (grantExpired(grant, deps.clock.nowUs())) throw new DomainError('expired', EXPIRED_KEY_MESSAGE);
  return grant;
}
