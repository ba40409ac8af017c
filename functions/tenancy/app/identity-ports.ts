/**
 * The console's sign-in (docs/adr/0041): the OpenID issuer it trusts, the verifier of its tokens, the
 * authorization-code client and the server-side session and login-state stores. The same ports serve a
 * Cognito user pool on AWS and the embedded provider locally; only the issuer's settings differ.
 */

/** How an issuer marks an access token as meant for this console. */
export type AccessTokenRule =
  /** Cognito: no `aud`; `client_id` names the app client and `token_use` is "access". */
  | { readonly kind: 'cognito' }
  /** RFC 9068 JWT access tokens (the embedded provider): `aud` is the console's resource indicator. */
  | { readonly kind: 'audience'; readonly audience: string };

export interface IdentityIssuer {
  /** Exactly the `iss` the issuer puts in its tokens and its discovery document. */
  readonly issuer: string;
  readonly clientId: string;
  readonly accessToken: AccessTokenRule;
}

/** The person an ID token names. Roles are the platform's own data: the issuer only authenticates. */
export interface VerifiedPerson {
  readonly issuer: string;
  readonly subject: string;
  /** Present only when the issuer says it is verified. */
  readonly email?: string;
}

export interface VerifiedAccess {
  readonly issuer: string;
  readonly subject: string;
  readonly clientId: string;
  readonly scopes: readonly string[];
  readonly expiresAtS: number;
}

/** Thrown for every token that does not pass; the message says why, for logs, never for the browser. */
export class IdentityTokenRejected extends Error {
  override readonly name = 'IdentityTokenRejected';
}

export interface IdentityVerifier {
  /** Signature by the issuer's JWKS, `iss`, `aud` = client id, `exp`/`nbf`, and the login's `nonce`. */
  verifyIdToken(token: string, expected: { readonly nonce: string }): Promise<VerifiedPerson>;
  /** Signature, `iss`, `exp`/`nbf`, `client_id`, and the issuer's audience rule. */
  verifyAccessToken(token: string): Promise<VerifiedAccess>;
}

export interface TokenSet {
  readonly idToken: string;
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** Epoch seconds at which the access token expires, as the token endpoint said. */
  readonly expiresAtS: number;
}

/** What a login remembers between the redirect to the issuer and the callback. */
export interface LoginStart {
  readonly url: string;
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

/** The authorization-code + PKCE flow of a confidential client (client_secret_basic). */
export interface SignInClient {
  beginSignIn(): Promise<LoginStart>;
  exchangeCode(code: string, codeVerifier: string): Promise<TokenSet>;
  refresh(refreshToken: string): Promise<TokenSet>;
  /** RP-initiated logout: where to send the browser so the issuer ends its own session too. */
  logoutUrl(opts: { readonly idTokenHint: string; readonly postLogoutRedirectUri: string }): Promise<string>;
}

/** A session as the sign-in creates it. */
export interface NewConsoleSession {
  readonly person: VerifiedPerson;
  readonly tokens: TokenSet;
  /** Epoch seconds; the item's TTL attribute too. */
  readonly expiresAtS: number;
}

/**
 * A session as a console call reads it: who, until when, and its tokens unsealed only when they are
 * needed (a refresh, a sign-out), so a call within the access token's lifetime opens no sealed secret.
 */
export interface ConsoleSession {
  readonly person: VerifiedPerson;
  /** When the access token expires (epoch seconds): past it, the session is refreshed before it is used. */
  readonly accessExpiresAtS: number;
  /** Epoch seconds; the item's TTL attribute too. */
  readonly expiresAtS: number;
  /** The tokens, unsealed now; undefined when they cannot be (sealed under another key or purpose). */
  readonly tokens: () => Promise<TokenSet | undefined>;
}

/**
 * Sessions keyed by the SHA-256 of the random id the cookie holds: the raw id never reaches storage,
 * and the tokens are stored sealed. A session past its expiry reads as absent even before TTL removes it.
 */
export interface ConsoleSessionStore {
  create(sessionId: string, session: NewConsoleSession): Promise<void>;
  get(sessionId: string, nowS: number): Promise<ConsoleSession | undefined>;
  replaceTokens(sessionId: string, tokens: TokenSet): Promise<void>;
  delete(sessionId: string): Promise<void>;
}

export interface LoginState {
  readonly state: string;
  readonly codeVerifier: string;
  readonly nonce: string;
  /** A path on the console's own origin (checked before it is stored). */
  readonly returnPath: string;
  readonly expiresAtS: number;
}

export interface LoginStateStore {
  put(login: LoginState): Promise<void>;
  /** Reads and deletes in one step: a state is used once. Expired states read as absent. */
  take(state: string, nowS: number): Promise<LoginState | undefined>;
}

/** One configured issuer: how to sign in with it, how to check its tokens, where it sends the browser after logout. */
export interface ConsoleAuth {
  readonly client: SignInClient;
  readonly verifier: IdentityVerifier;
  readonly postLogoutRedirectUri: string;
}

/** The console's sign-in ports: its session and login-state stores and its issuer. */
export interface ConsoleIdentityPorts {
  readonly consoleSessions: ConsoleSessionStore;
  readonly consoleLogins: LoginStateStore;
  /** The issuer, resolved on first use (on AWS its client secret is read then); undefined when sign-in is not configured. */
  consoleAuth(): Promise<ConsoleAuth | undefined>;
}
