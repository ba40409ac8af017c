import { INVALID_KEY_MESSAGE, PAID_PLAN_MESSAGE } from '../../kernel/domain/auth-messages';
import type { App } from '../domain/app';
import { DomainError } from '../../kernel/domain/errors';
import type { KeyGrant } from '../domain/key-grant';
import type { Org } from '../domain/org';
import type { PlatformDeps } from './tenancy-ports';
import { resolveApiKey } from './resolve-api-key';

export interface ChatPrincipal {
  readonly keyId: string;
  readonly org: Org;
  readonly app: App;
}

export { PAID_PLAN_MESSAGE };

/**
 * The app and org of a valid chat key (resolved by the key authorizer). Read on every request, because
 * a cached grant outlives neither of them: a key of a deleted app and an org on the free plan are 401
 * (the spec's area B).
 */
export async function admitChatGrant(deps: Pick<PlatformDeps, 'orgs' | 'apps'>, grant: KeyGrant): Promise<ChatPrincipal> {
  const [org, app] = await Promise.all([deps.orgs.get(grant.orgId), grant.appId ? deps.apps.get(grant.appId) : undefined]);
  if (!org || !app || app.deletedAtUs !== undefined) throw new DomainError('unauthorized', INVALID_KEY_MESSAGE);
  if (org.plan !== 'paid') throw new DomainError('plan_required', PAID_PLAN_MESSAGE);
  return { keyId: grant.keyId, org, app };
}

/** Resolves a chat API key (`svc_chat_…`) to its app and org in one step (callers with no gateway in front). */
export async function authenticateChatKey(
  deps: Pick<PlatformDeps, 'credentials' | 'orgs' | 'apps' | 'clock'>,
  input: { authorization: string | undefined },
): Promise<ChatPrincipal> {
  return admitChatGrant(deps, await resolveApiKey(deps, { keyClass: 'chatKey', authorization: input.authorization }));
}
