/**
 * The console's side of the authorization-code flow with PKCE (S256), as a confidential client that
 * authenticates at the token endpoint with HTTP Basic (client_secret_basic), over plain `fetch`.
 * The tokens it returns are not trusted yet: the caller verifies them (IdentityVerifier).
 */
import type { LoginStart, SignInClient, TokenSet } from '../app/identity-ports';
import { codeChallenge, randomUrlToken } from '../domain/pkce';
import { type FetchLike, issuerDiscovery } from './oidc-discovery';

export interface OidcClientConfig {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The console's callback, registered with the issuer. */
  readonly redirectUri: string;
  readonly scopes?: readonly string[];
  /** An RFC 8707 resource indicator, for issuers that mint JWT access tokens per resource. */
  readonly resource?: string;
  readonly fetch?: FetchLike;
  readonly nowS?: () => number;
}

/** RFC 6749 §2.3.1: each part is form-encoded before it is joined and base64-encoded. */
function basicAuth(id: string, secret: string): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${enc(id)}:${enc(secret)}`).toString('base64')}`;
}

export class OidcCodeFlowClient implements SignInClient {
  private readonly discover;
  private readonly fetchFn: FetchLike;

  constructor(private readonly config: OidcClientConfig) {
    this.fetchFn = config.fetch ?? fetch;
    this.discover = issuerDiscovery(config.issuer, this.fetchFn);
  }

  async beginSignIn(): Promise<LoginStart> {
    const meta = await this.discover();
    const state = randomUrlToken();
    const nonce = randomUrlToken();
    const codeVerifier = randomUrlToken();
    const url = new URL(meta.authorization_endpoint);
    const params: Record<string, string> = {
      response_type: 'code',
      client_id: this.config.clientId,
      redirect_uri: this.config.redirectUri,
      scope: (this.config.scopes ?? ['openid', 'email']).join(' '),
      state,
      nonce,
      code_challenge: codeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    };
    if (this.config.resource) params.resource = this.config.resource;
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return { url: url.toString(), state, nonce, codeVerifier };
  }

  exchangeCode(code: string, codeVerifier: string): Promise<TokenSet> {
    return this.tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: this.config.redirectUri, code_verifier: codeVerifier });
  }

  async refresh(refreshToken: string): Promise<TokenSet> {
    const tokens = await this.tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken });
    // Without rotation the issuer answers no new refresh token: the old one stays good.
    return tokens.refreshToken ? tokens : { ...tokens, refreshToken };
  }

  async logoutUrl(opts: { readonly idTokenHint: string; readonly postLogoutRedirectUri: string }): Promise<string> {
    const meta = await this.discover();
    if (!meta.end_session_endpoint) throw new Error(`${this.config.issuer} offers no end_session_endpoint`);
    const url = new URL(meta.end_session_endpoint);
    url.searchParams.set('client_id', this.config.clientId);
    url.searchParams.set('id_token_hint', opts.idTokenHint);
    url.searchParams.set('post_logout_redirect_uri', opts.postLogoutRedirectUri);
    return url.toString();
  }

  private async tokenRequest(form: Record<string, string>): Promise<TokenSet> {
    const meta = await this.discover();
    const body = new URLSearchParams(form);
    if (this.config.resource) body.set('resource', this.config.resource);
    const res = await this.fetchFn(meta.token_endpoint, {
      method: 'POST',
      headers: {
        authorization: basicAuth(this.config.clientId, this.config.clientSecret),
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: body.toString(),
    });
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok) throw new Error(`the token endpoint refused the ${form.grant_type} grant: ${res.status} ${String(json.error ?? '')}`);
    if (typeof json.access_token !== 'string' || typeof json.id_token !== 'string') {
      throw new Error('the token endpoint answered without an access token and an ID token');
    }
    const nowS = this.config.nowS?.() ?? Math.floor(Date.now() / 1000);
    return {
      idToken: json.id_token,
      accessToken: json.access_token,
      ...(typeof json.refresh_token === 'string' ? { refreshToken: json.refresh_token } : {}),
      expiresAtS: nowS + (typeof json.expires_in === 'number' ? json.expires_in : 0),
    };
  }
}
