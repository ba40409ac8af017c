import { bearerToken, credentialState, hashCredential, CREDENTIAL_PREFIX } from '../domain/credentials';
import { DomainError } from '../domain/errors';
import type { OrgScope } from '../domain/scopes';
import type { Deps } from '../ports/deps';

export interface OrgPrincipal {
  readonly orgId: string;
  readonly keyId: string;
  readonly scopes: readonly OrgScope[];
}

/**
 * Resolves the org key of an `Authorization` header. Missing, malformed, unknown, revoked or expired:
 * 401. The scope is checked separately (requireScope), after the request is counted against the key.
 */
export async function authenticateOrgKey(
  deps: Pick<Deps, 'credentials' | 'clock'>,
  input: { authorization: string | undefined },
): Promise<OrgPrincipal> {
  const token = bearerToken(input.authorization);
  if (!token) throw new DomainError('unauthorized', 'Missing API key: send Authorization: Bearer <ORG_API_KEY>');
  if (!token.startsWith(CREDENTIAL_PREFIX.org)) throw new DomainError('unauthorized', 'Invalid API key');
  const cred = await deps.credentials.findByHash(hashCredential(token));
  if (!cred || cred.kind !== 'org') throw new DomainError('unauthorized', 'Invalid API key');
  const state = credentialState(cred, deps.clock.nowUs());
  if (state === 'revoked') throw new DomainError('unauthorized', 'Invalid API key');
  if (state === 'expired') throw new DomainError('unauthorized', 'API key has expired');
  return { orgId: cred.orgId, keyId: cred.id, scopes: cred.scopes };
}

/** A valid key outside its scopes: 403. */
export function requireScope(principal: OrgPrincipal, scope: OrgScope): void {
  if (!principal.scopes.includes(scope)) throw new DomainError('forbidden', `API key lacks the required scope: ${scope}`);
}
