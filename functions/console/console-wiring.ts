/**
 * The console area's composition root. On AWS the issuer comes from the environment the
 * `identity:read` grant sets (CONSOLE_ISSUER_URL, and the Secrets Manager secret holding the client's
 * id and secret, read on first use); the local platform passes the running issuer's settings instead.
 * Without either, the routes answer 503 "sign-in is not configured".
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { createDocumentClient } from '../kernel/adapters/aws-clients';
import { ENV } from '../kernel/env';
import { buildWebhookSealing, type OutboundWebhookWiringOptions } from '../kernel/wiring/outbound-webhook-wiring';
import { DynamoConsoleSessionStore } from '../tenancy/adapters/dynamo-console-session-store';
import { JoseIdentityVerifier } from '../tenancy/adapters/jose-identity-verifier';
import { OidcCodeFlowClient } from '../tenancy/adapters/oidc-code-flow-client';
import type { IdentityIssuer, SignInClient } from '../tenancy/app/identity-ports';
import { buildCoreDeps, onFirstUse, type CoreDeps } from '../tenancy/wiring/core-wiring';
import { buildMembersPorts } from '../tenancy/wiring/members-wiring';
import type { ConsoleAuth, ConsoleDeps } from './app/console-ports';

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

export type ConsoleFunctionDeps = CoreDeps & ConsoleDeps;

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

/** The console's ports on top of the core deps the caller already built. */
export function buildConsolePorts(opts: ConsoleWiringOptions, db = createDocumentClient(opts.aws ?? {})): Omit<ConsoleDeps, keyof CoreDeps> {
  const table = opts.env[ENV.tableName];
  const store = new DynamoConsoleSessionStore(db, table, buildWebhookSealing(opts).secrets);
  const local = opts.consoleIssuer ? consoleAuthFrom(opts.consoleIssuer) : undefined;
  return {
    ...buildMembersPorts(db, table),
    consoleSessions: store,
    consoleLogins: store,
    consoleAuth: local ? async () => local : issuerFromEnvironment(opts),
  };
}

export function buildConsoleDeps(opts: ConsoleWiringOptions): ConsoleFunctionDeps {
  const db = createDocumentClient(opts.aws ?? {});
  return { ...buildCoreDeps(opts, db), ...buildConsolePorts(opts, db) };
}

export const consoleProductionDeps = /* @__PURE__ */ onFirstUse(buildConsoleDeps);
