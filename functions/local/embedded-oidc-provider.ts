/**
 * The local console's OpenID provider: `oidc-provider` (OpenID Certified) in the platform's process,
 * on a loopback port of its own (the issuer is `http://<host>:<port>`, so a browser follows its
 * redirects as it would Cognito's). Its signing key, cookie keys, client secret and storage live in
 * `<dataDir>/oidc/`, so tokens stay valid across restarts. One confidential client, the console,
 * with the authorization-code grant and PKCE; its access tokens are RFC 9068 JWTs for the console's
 * resource indicator. Nothing deployed imports this file (docs/adr/0041).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';
import { type ConsoleUser, loadConsoleUsers } from './console-accounts';
import type { ConsoleSignInSettings } from './console-sign-in';
import { ConfigError } from './main-options';
import { fileAdapterFactory } from './oidc-file-adapter';
import { handleInteraction, INTERACTION_PREFIX, providerPages } from './oidc-login-page';

export const CONSOLE_CLIENT_ID = 'console';
export const CONSOLE_RESOURCE = 'urn:platform:console';
const CONSOLE_SCOPE = 'console';

export interface EmbeddedOidcProvider {
  readonly settings: ConsoleSignInSettings;
  readonly users: readonly ConsoleUser[];
  stop(): Promise<void>;
}

/** A JSON file of the data folder, made on first use (`wx`, mode 0600). */
function keptSecret<T>(file: string, make: () => T): T {
  if (!existsSync(file)) {
    try {
      writeFileSync(file, JSON.stringify(make()), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

export async function startEmbeddedOidcProvider(opts: {
  readonly dataDir: string;
  readonly host: string;
  readonly port: number;
  /** The console's origin: the platform's base URL. */
  readonly consoleBaseUrl: string;
}): Promise<EmbeddedOidcProvider> {
  const dir = join(opts.dataDir, 'oidc');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const jwk = keptSecret(join(dir, 'signing-key.json'), () => ({
    ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
    kid: randomBytes(8).toString('hex'),
    alg: 'RS256',
    use: 'sig',
  }));
  const secrets = keptSecret(join(dir, 'secrets.json'), () => ({
    cookieKey: randomBytes(32).toString('base64url'),
    clientSecret: randomBytes(32).toString('base64url'),
  }));
  const users = loadConsoleUsers(join(opts.dataDir, 'console-users.json'));

  const server: Server = createServer();
  await new Promise<void>((ok, fail) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      fail(err.code === 'EADDRINUSE' ? new ConfigError(`port ${opts.port} of the OpenID provider is already in use; set OIDC_PORT to another port`) : err),
    );
    server.listen(opts.port, opts.host, () => ok());
  });
  const address = server.address() as AddressInfo;
  const issuerUrl = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  const redirectUri = `${opts.consoleBaseUrl}/console/auth/callback`;
  const postLogoutRedirectUri = `${opts.consoleBaseUrl}/console/`;

  const provider = new Provider(issuerUrl, {
    adapter: fileAdapterFactory(join(dir, 'store')),
    jwks: { keys: [jwk] },
    cookies: { keys: [secrets.cookieKey] },
    clients: [
      {
        client_id: CONSOLE_CLIENT_ID,
        client_secret: secrets.clientSecret,
        redirect_uris: [redirectUri],
        post_logout_redirect_uris: [postLogoutRedirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { methods: ['S256'], required: () => true },
    scopes: ['openid', 'email'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    // The console reads the person from the ID token; its access token is for the console API, not userinfo.
    conformIdTokenClaims: false,
    findAccount: async (_ctx: unknown, sub: string) => {
      const user = users.find((u) => u.subject === sub);
      return user ? { accountId: sub, claims: async () => ({ sub, email: user.email, email_verified: true }) } : undefined;
    },
    // The console is first-party: signing in is consent enough.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { client, session, result } = ctx.oidc;
      const grantId = result?.consent?.grantId ?? (client && session?.grantIdFor(client.clientId));
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      if (client?.clientId !== CONSOLE_CLIENT_ID || !session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email');
      grant.addResourceScope(CONSOLE_RESOURCE, CONSOLE_SCOPE);
      await grant.save();
      return grant;
    },
    renderError: providerPages.renderError,
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${INTERACTION_PREFIX}${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: true, logoutSource: providerPages.logoutSource },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => CONSOLE_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => {
          if (resource !== CONSOLE_RESOURCE) throw new Error(`unknown resource ${resource}`);
          return { scope: CONSOLE_SCOPE, audience: CONSOLE_RESOURCE, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } };
        },
      },
    },
    // Refresh tokens without `offline_access`, which OIDC would tie to a consent prompt.
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(t: string): boolean }) => client.grantTypeAllowed('refresh_token'),
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 8 * 3600, Grant: 8 * 3600, RefreshToken: 8 * 3600 },
  });
  const callback = provider.callback();
  server.on('request', (req, res) => {
    if ((req.url ?? '').startsWith(INTERACTION_PREFIX)) {
      handleInteraction(provider, users, req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
      return;
    }
    callback(req, res);
  });

  return {
    settings: {
      issuer: { issuer: issuerUrl, clientId: CONSOLE_CLIENT_ID, accessToken: { kind: 'audience', audience: CONSOLE_RESOURCE } },
      clientSecret: secrets.clientSecret,
      redirectUri,
      postLogoutRedirectUri,
      scopes: ['openid', 'email', CONSOLE_SCOPE],
      resource: CONSOLE_RESOURCE,
    },
    users,
    stop: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}
