import { DomainError } from '../../kernel/domain/errors';
import type { KeyGrant } from '../domain/key-grant';
import type { OrgScope } from '../../kernel/domain/scopes';

export interface OrgPrincipal {
  readonly orgId: string;
  readonly keyId: string;
  readonly scopes: readonly OrgScope[];
}

/** The org a valid org key (resolved by the key authorizer, functions/tenancy/app/admit-request.ts) reads. */
export function orgPrincipal(grant: KeyGrant): OrgPrincipal {
  return { orgId: grant.orgId, keyId: grant.keyId, scopes: grant.scopes };
}

/** A valid key outside its scopes: 403. Checked after the request is counted against the key. */
export function requireScope(principal: OrgPrincipal, scope: OrgScope): void {
  if (!principal.scopes.includes(scope)) throw new DomainError('forbidden', `API key lacks the required scope: ${scope}`);
}
