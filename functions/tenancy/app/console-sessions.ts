/**
 * The session behind a console cookie (docs/adr/0041): read on every console call, by the sign-in
 * routes and by the kit's admission of the console API alike. A session whose access token has expired
 * is refreshed with its refresh token, so a person the issuer has disabled since is signed out within
 * one access-token lifetime; a refused refresh ends the session.
 */
import { DomainError } from '../../kernel/domain/errors';
import type { Clock } from '../../kernel/app/kernel-ports';
import type { ConsoleAuth, ConsoleIdentityPorts, ConsoleSession, TokenSet } from './identity-ports';

export type ConsoleSessionDeps = ConsoleIdentityPorts & { readonly clock: Clock };

export const nowS = (deps: { readonly clock: Clock }): number => Math.floor(Number(deps.clock.nowUs()) / 1_000_000);

export async function requireConsoleAuth(deps: Pick<ConsoleIdentityPorts, 'consoleAuth'>): Promise<ConsoleAuth> {
  const auth = await deps.consoleAuth();
  if (!auth) throw new DomainError('unavailable', 'Console sign-in is not configured');
  return auth;
}

export const notSignedIn = () => new DomainError('unauthorized', 'Not signed in to the console');

/** The session a cookie's id names, or a 401: a missing, unknown or expired session is the same answer. */
export async function requireConsoleSession(deps: ConsoleSessionDeps, sessionId: string | undefined): Promise<ConsoleSession> {
  const session = sessionId ? await deps.consoleSessions.get(sessionId, nowS(deps)) : undefined;
  if (!sessionId || !session) throw notSignedIn();
  if (session.accessExpiresAtS > nowS(deps)) return session;
  const tokens = await refreshed(deps, session);
  if (!tokens) {
    await deps.consoleSessions.delete(sessionId);
    throw notSignedIn();
  }
  await deps.consoleSessions.replaceTokens(sessionId, tokens);
  return { ...session, accessExpiresAtS: tokens.expiresAtS, tokens: async () => tokens };
}

async function refreshed(deps: ConsoleSessionDeps, session: ConsoleSession): Promise<TokenSet | undefined> {
  const auth = await deps.consoleAuth();
  const refreshToken = (await session.tokens())?.refreshToken;
  if (!auth || !refreshToken) return undefined;
  try {
    const tokens = await auth.client.refresh(refreshToken);
    const access = await auth.verifier.verifyAccessToken(tokens.accessToken);
    if (access.subject !== session.person.subject) return undefined;
    return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
  } catch {
    return undefined;
  }
}
