/**
 * The console's sign-in wiring, for every function that serves a console route: the session and
 * login-state stores, the issuer (on AWS from the environment the `identity:read` grant sets:
 * CONSOLE_ISSUER_URL and the Secrets Manager secret holding the client's id and secret, read on first
 * use; locally the running issuer's settings), and the admission of the console API on top of the core
 * deps. Without an issuer, console routes answer 503 "sign-in is not configured".
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ENV } from '../../kernel/env';
import { buildSecretSealer, type OutboundWebhookWiringOptions } from '../../kernel/wiring/outbound-webhook-wiring';
import { DynamoConsoleSessionStore } from '../adapters/dynamo-console-session-store';
import { JoseIdentityVerifier } from '../adapters/jose-identity-verifier';
import { OidcCodeFlowClient } from '../adapters/oidc-code-flow-client';
import { keyAdmission } from '../app/admit-request';
import { consoleAdmissionOf } from '../app/admit-console-member';
import type { ConsoleAuth, ConsoleIdentityPorts, IdentityIssuer, SignInClient } from '../app/identity-ports';
import type { MemberStore } from '../app/members-ports';
import type { CoreDeps } from './core-wiring';

/** What signing in with one issuer takes (the local platform's running issuer has this shape). */
export interface ConsoleIssuerSettings {
  readonly issuer: IdentityIssuer;
  readonly clientSecret: string;
  readonly redirectUri: string;
  readonly postLogoutRedirectUri: string;
  readonly scopes: readonly string[];
  readonly resource?: string;
}

export interface ConsoleWiringOptions extends OutboundWebhookWiringOptions {
  /** The issuer the local platform runs or points at; unset on AWS, where the environment names it. */
  readonly consoleIssuer?: ConsoleIssuerSettings;
}

export function consoleAuthFrom(s: ConsoleIssuerSettings): ConsoleAuth {
  const client = new OidcCodeFlowClient({
    issuer: s.issuer.issuer,
    clientId: s.issuer.clientId,
    clientSecret: s.clientSecret,
    redirectUri: s.redirectUri,
    scopes: s.scopes,
    ...(s.resource ? { resource: s.resource } : {}),
  });
  return { client, verifier: new JoseIdentityVerifier(s.issuer), postLogoutRedirectUri: s.postLogoutRedirectUri };
}

/** The Cognito app client's settings from its secret (`{ client_id, client_secret }`), read once. */
function issuerFromEnvironment(opts: ConsoleWiringOptions): () => Promise<ConsoleAuth | undefined> {
  const issuer = opts.env[ENV.consoleIssuerUrl];
  const secretId = opts.env[ENV.consoleClientSecret];
  const base = opts.env[ENV.publicBaseUrl];
  const authBase = opts.env[ENV.consoleAuthBaseUrl];
  if (!issuer || !secretId || !base) return async () => undefined;
  let auth: Promise<ConsoleAuth> | undefined;
  const load = async (): Promise<ConsoleAuth> => {
    const res = await new SecretsManagerClient({ maxAttempts: 3 }).send(new GetSecretValueCommand({ SecretId: secretId }));
    const { client_id: clientId, client_secret: clientSecret } = JSON.parse(res.SecretString ?? '{}') as Record<string, string>;
    if (!clientId || !clientSecret) throw new Error(`secret ${secretId} lacks client_id or client_secret`);
    const auth = consoleAuthFrom({
      issuer: { issuer, clientId, accessToken: { kind: 'cognito' } },
      clientSecret,
      redirectUri: `${base}/console/auth/callback`,
      postLogoutRedirectUri: `${base}/console/`,
      scopes: ['openid', 'email'],
    });
    return authBase ? { ...auth, client: withCognitoLogout(auth.client, authBase, clientId) } : auth;
  };
  return () => {
    auth ??= load().catch((err: unknown) => {
      auth = undefined;
      throw err;
    });
    return auth;
  };
}

/**
 * Cognito's discovery document names no end-session endpoint: its managed login's `/logout` (with the
 * client id and a registered `logout_uri`) ends its session instead.
 */
function withCognitoLogout(client: SignInClient, authBaseUrl: string, clientId: string): SignInClient {
  return {
    beginSignIn: () => client.beginSignIn(),
    exchangeCode: (code, verifier) => client.exchangeCode(code, verifier),
    refresh: (token) => client.refresh(token),
    logoutUrl: async ({ postLogoutRedirectUri }) => {
      const url = new URL('/logout', authBaseUrl);
      url.searchParams.set('client_id', clientId);
      url.searchParams.set('logout_uri', postLogoutRedirectUri);
      return url.toString();
    },
  };
}

/** The console's session and login-state stores and its issuer. */
export function buildConsoleIdentityPorts(opts: ConsoleWiringOptions, db: DynamoDBDocumentClient): ConsoleIdentityPorts {
  const store = new DynamoConsoleSessionStore(db, opts.env[ENV.tableName], buildSecretSealer(opts, 'console-session-tokens'));
  const local = opts.consoleIssuer ? consoleAuthFrom(opts.consoleIssuer) : undefined;
  return { consoleSessions: store, consoleLogins: store, consoleAuth: local ? async () => local : issuerFromEnvironment(opts) };
}

/** The core deps with an admission that also admits console members (the console's origin from the public base URL). */
export function withConsoleAdmission<D extends CoreDeps>(
  deps: D,
  identity: ConsoleIdentityPorts,
  members: Pick<MemberStore, 'get'>,
  opts: ConsoleWiringOptions,
): D {
  const base = opts.env[ENV.publicBaseUrl];
  const consoleAdmission = { ...identity, members, clock: deps.clock, ...(base ? { consoleOrigin: new URL(base).origin } : {}) };
  return { ...deps, admission: keyAdmission({ ...deps, consoleAdmission: consoleAdmissionOf(consoleAdmission) }) };
}
