/**
 * Verifies the issuer's tokens with `jose` against its JWKS (found through discovery): asymmetric
 * algorithms only, so `alg: none` and an HS* token "signed" with the public key both fail; `iss` exact;
 * `exp` and `nbf` with a small skew; and the claims each kind of token and issuer uses (the rules are in
 * identity-ports.ts).
 */
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import { type IdentityIssuer, IdentityTokenRejected, type IdentityVerifier, type VerifiedAccess, type VerifiedPerson } from '../app/identity-ports';
import { type FetchLike, issuerDiscovery } from './oidc-discovery';

export const ALLOWED_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
export const CLOCK_SKEW_S = 30;

export interface JoseIdentityVerifierOptions {
  readonly fetch?: FetchLike;
  /** For tests: the time tokens are judged at. */
  readonly now?: () => Date;
}

export class JoseIdentityVerifier implements IdentityVerifier {
  private readonly discover;
  private jwks?: ReturnType<typeof createRemoteJWKSet>;

  constructor(
    private readonly issuer: IdentityIssuer,
    private readonly opts: JoseIdentityVerifierOptions = {},
  ) {
    this.discover = issuerDiscovery(issuer.issuer, opts.fetch);
  }

  private async keys(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    if (!this.jwks) this.jwks = createRemoteJWKSet(new URL((await this.discover()).jwks_uri));
    return this.jwks;
  }

  private async verify(token: string, audience: string | undefined): Promise<JWTPayload> {
    try {
      const { payload } = await jwtVerify(token, await this.keys(), {
        issuer: this.issuer.issuer,
        audience,
        algorithms: ALLOWED_ALGORITHMS,
        clockTolerance: CLOCK_SKEW_S,
        requiredClaims: ['exp', 'sub'],
        currentDate: this.opts.now?.(),
      });
      return payload;
    } catch (err) {
      if (err instanceof errors.JOSEError) throw new IdentityTokenRejected(`${err.code}: ${err.message}`);
      throw err;
    }
  }

  async verifyIdToken(token: string, expected: { readonly nonce: string }): Promise<VerifiedPerson> {
    const claims = await this.verify(token, this.issuer.clientId);
    if (claims.nonce !== expected.nonce) throw new IdentityTokenRejected('the ID token does not carry this login nonce');
    if (claims.token_use !== undefined && claims.token_use !== 'id') throw new IdentityTokenRejected('not an ID token (token_use)');
    // A token with several audiences must name this client as its authorized party (OIDC Core §3.1.3.7).
    if (Array.isArray(claims.aud) && claims.aud.length > 1 && claims.azp !== this.issuer.clientId) {
      throw new IdentityTokenRejected('the ID token has several audiences and another authorized party');
    }
    const verifiedEmail = typeof claims.email === 'string' && (claims.email_verified === true || claims.email_verified === 'true');
    return { issuer: this.issuer.issuer, subject: claims.sub!, ...(verifiedEmail ? { email: claims.email as string } : {}) };
  }

  async verifyAccessToken(token: string): Promise<VerifiedAccess> {
    const rule = this.issuer.accessToken;
    const claims = await this.verify(token, rule.kind === 'audience' ? rule.audience : undefined);
    if (claims.client_id !== this.issuer.clientId) throw new IdentityTokenRejected('the access token was issued to another client');
    if (rule.kind === 'cognito' && claims.token_use !== 'access') throw new IdentityTokenRejected('not an access token (token_use)');
    const scope = typeof claims.scope === 'string' ? claims.scope : '';
    return {
      issuer: this.issuer.issuer,
      subject: claims.sub!,
      clientId: this.issuer.clientId,
      scopes: scope.split(' ').filter(Boolean),
      expiresAtS: claims.exp!,
    };
  }
}
