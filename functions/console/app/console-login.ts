/**
 * A console login from start to session (docs/adr/0041): the login state goes to the table and its
 * `state` to a browser cookie; the callback takes the state once, checks it is this browser's, exchanges
 * the code, verifies both tokens and signs the person in (tenancy's `signIn`) before a session exists.
 */
import { DomainError } from '../../kernel/domain/errors';
import type { RequestOrigin } from '../../tenancy/app/act-on-org';
import { IdentityTokenRejected, type ConsoleAuth } from '../../tenancy/app/identity-ports';
import { signIn } from '../../tenancy/app/sign-in-person';
import { CONSOLE_SESSION_TTL_S, LOGIN_STATE_TTL_S, newConsoleSessionId, safeReturnPath } from '../../tenancy/domain/console-session';
import type { ConsoleDeps } from './console-ports';
import { nowS, requireConsoleAuth } from '../../tenancy/app/console-sessions';

export async function beginConsoleLogin(deps: ConsoleDeps, input: { returnPath?: string }): Promise<{ url: string; state: string }> {
  const auth = await requireConsoleAuth(deps);
  const start = await auth.client.beginSignIn().catch(() => {
    throw new DomainError('unavailable', 'The sign-in issuer cannot be reached; try again shortly');
  });
  const returnPath = safeReturnPath(input.returnPath);
  await deps.consoleLogins.put({
    state: start.state,
    nonce: start.nonce,
    codeVerifier: start.codeVerifier,
    returnPath,
    expiresAtS: nowS(deps) + LOGIN_STATE_TTL_S,
  });
  return { url: start.url, state: start.state };
}

const refused = (message: string) => new DomainError('unauthorized', message);

export interface CallbackInput {
  readonly code?: string;
  readonly state?: string;
  readonly error?: string;
  /** The state of the login cookie this browser sent. */
  readonly cookieState?: string;
  readonly origin: RequestOrigin;
}

export async function completeConsoleLogin(deps: ConsoleDeps, input: CallbackInput): Promise<{ sessionId: string; returnPath: string }> {
  const auth = await requireConsoleAuth(deps);
  if (input.error !== undefined) throw refused(`The issuer refused the sign-in: ${input.error.slice(0, 100)}`);
  if (!input.code || !input.state) throw new DomainError('bad_request', 'The callback needs code and state');
  if (input.cookieState !== input.state) throw refused('This sign-in was not started in this browser; start again');
  const login = await deps.consoleLogins.take(input.state, nowS(deps));
  if (!login) throw refused('This sign-in has expired or was already used; start again');
  let tokens: Awaited<ReturnType<typeof auth.client.exchangeCode>>;
  try {
    tokens = await auth.client.exchangeCode(input.code, login.codeVerifier);
  } catch {
    throw refused('The issuer did not accept the sign-in code; start again');
  }
  const person = await verified(auth, tokens, login.nonce);
  if (!person.email) throw new DomainError('forbidden', 'Your e-mail address is not verified');
  await signIn(deps, { identity: { issuer: person.issuer, subject: person.subject, email: person.email, emailVerified: true }, origin: input.origin });
  const sessionId = newConsoleSessionId();
  await deps.consoleSessions.create(sessionId, { person, tokens, expiresAtS: nowS(deps) + CONSOLE_SESSION_TTL_S });
  return { sessionId, returnPath: login.returnPath };
}

async function verified(auth: ConsoleAuth, tokens: { idToken: string; accessToken: string }, nonce: string) {
  try {
    const person = await auth.verifier.verifyIdToken(tokens.idToken, { nonce });
    await auth.verifier.verifyAccessToken(tokens.accessToken);
    return person;
  } catch (err) {
    // A JWKS that cannot be fetched verifies nothing either: no session, and no 500.
    throw refused(
      err instanceof IdentityTokenRejected ? 'The issuer’s tokens did not pass verification' : 'The issuer’s tokens could not be verified; start again',
    );
  }
}
