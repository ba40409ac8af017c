/**
 * What the console's sign-in routes need: the issuer's code-flow client and verifier, the session and
 * login-state stores (docs/adr/0041), and the members' stores that `signIn` and the session's org list read.
 */
import type { ConsoleSessionStore, IdentityVerifier, LoginStateStore, SignInClient } from '../../tenancy/app/identity-ports';
import type { MembersDeps } from '../../tenancy/app/members-ports';

/** One configured issuer: how to sign in with it and where it sends the browser after logout. */
export interface ConsoleAuth {
  readonly client: SignInClient;
  readonly verifier: IdentityVerifier;
  readonly postLogoutRedirectUri: string;
}

export interface ConsoleDeps extends MembersDeps {
  readonly consoleSessions: ConsoleSessionStore;
  readonly consoleLogins: LoginStateStore;
  /** The issuer, resolved on first use (on AWS its client secret is read then); undefined when sign-in is not configured. */
  consoleAuth(): Promise<ConsoleAuth | undefined>;
}
