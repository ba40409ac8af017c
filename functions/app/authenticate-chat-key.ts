import { bearerToken, credentialState, hashCredential, CREDENTIAL_PREFIX } from '../domain/credentials';
import { DomainError } from '../domain/errors';
import type { App } from '../domain/app';
import type { Org } from '../domain/org';
import type { Deps } from '../ports/deps';

export interface ChatPrincipal {
  readonly keyId: string;
  readonly org: Org;
  readonly app: App;
}

export const PAID_PLAN_MESSAGE = 'The Chat Completions API is only available on paid plans; upgrade the organization to a paid plan';

/**
 * Resolves a chat API key (`svc_chat_…`) to its app and org. Missing, malformed, unknown, revoked or
 * expired keys, keys of a deleted app, and orgs on the free plan are all 401 (the spec's area B).
 */
export async function authenticateChatKey(deps: Pick<Deps, 'credentials' | 'orgs' | 'apps' | 'clock'>, input: { authorization: string | undefined }): Promise<ChatPrincipal> {
  const token = bearerToken(input.authorization);
  if (!token) throw new DomainError('unauthorized', 'Missing API key: send Authorization: Bearer <API_KEY>');
  if (!token.startsWith(CREDENTIAL_PREFIX.chat)) throw new DomainError('unauthorized', 'Invalid API key');
  const cred = await deps.credentials.findByHash(hashCredential(token));
  if (!cred || cred.kind !== 'chat' || !cred.appId) throw new DomainError('unauthorized', 'Invalid API key');
  const state = credentialState(cred, deps.clock.nowUs());
  if (state === 'revoked') throw new DomainError('unauthorized', 'Invalid API key');
  if (state === 'expired') throw new DomainError('unauthorized', 'API key has expired');
  const [org, app] = await Promise.all([deps.orgs.get(cred.orgId), deps.apps.get(cred.appId)]);
  if (!org || !app || app.deletedAtUs !== undefined) throw new DomainError('unauthorized', 'Invalid API key');
  if (org.plan !== 'paid') throw new DomainError('plan_required', PAID_PLAN_MESSAGE);
  return { keyId: cred.id, org, app };
}
