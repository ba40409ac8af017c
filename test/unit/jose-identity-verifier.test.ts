/**
 * The verifier against a loopback issuer whose keys are made here: good ID and access tokens pass, and
 * every forged one of the table is refused (alg none, HS256 keyed with the public key, another key,
 * issuer, audience or client, expired, not yet valid, wrong nonce, an ID token used as an access token).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IdentityIssuer, IdentityTokenRejected } from '../../functions/tenancy/app/identity-ports';
import { JoseIdentityVerifier } from '../../functions/tenancy/adapters/jose-identity-verifier';

const CLIENT = 'console-client';
const AUDIENCE = 'urn:console';
let server: Server;
let issuer: string;
type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
let signingKey: PrivateKey;
let publicPem: string;
let strangerKey: PrivateKey;
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  signingKey = pair.privateKey;
  publicPem = await exportSPKI(pair.publicKey);
  strangerKey = (await generateKeyPair('RS256')).privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') {
      res.end(JSON.stringify({ issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` }));
    } else if (req.url === '/jwks') res.end(JSON.stringify({ keys: [jwk] }));
    else res.writeHead(404).end('{}');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

function sign(claims: JWTPayload, opts: { key?: PrivateKey | Uint8Array; alg?: string; kid?: string } = {}): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: opts.alg ?? 'RS256', kid: opts.kid ?? 'k1' }).sign(opts.key ?? signingKey);
}

const idClaims = (over: JWTPayload = {}): JWTPayload => ({
  iss: issuer,
  sub: 'person-1',
  aud: CLIENT,
  nonce: 'n-1',
  email: 'owner@demo.local',
  email_verified: true,
  iat: now(),
  exp: now() + 300,
  ...over,
});
const accessClaims = (over: JWTPayload = {}): JWTPayload => ({
  iss: issuer,
  sub: 'person-1',
  client_id: CLIENT,
  scope: 'openid email',
  iat: now(),
  exp: now() + 300,
  ...over,
});

function unsigned(claims: JWTPayload): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${b64({ alg: 'none', kid: 'k1' })}.${b64(claims)}.`;
}

const verifier = (rule: IdentityIssuer['accessToken']) => new JoseIdentityVerifier({ issuer, clientId: CLIENT, accessToken: rule });

describe('JoseIdentityVerifier', () => {
  it('accepts a good ID token and gives the person with the verified e-mail', async () => {
    const person = await verifier({ kind: 'cognito' }).verifyIdToken(await sign(idClaims()), { nonce: 'n-1' });
    expect(person).toEqual({ issuer, subject: 'person-1', email: 'owner@demo.local' });
  });

  it('leaves out an e-mail the issuer has not verified', async () => {
    const person = await verifier({ kind: 'cognito' }).verifyIdToken(await sign(idClaims({ email_verified: false })), { nonce: 'n-1' });
    expect(person.email).toBeUndefined();
  });

  it('accepts a Cognito access token (no aud, client_id, token_use access) and an RFC 9068 one (aud)', async () => {
    const cognito = await verifier({ kind: 'cognito' }).verifyAccessToken(await sign(accessClaims({ token_use: 'access' })));
    expect(cognito).toMatchObject({ subject: 'person-1', clientId: CLIENT, scopes: ['openid', 'email'] });
    const jwtAt = await verifier({ kind: 'audience', audience: AUDIENCE }).verifyAccessToken(await sign(accessClaims({ aud: AUDIENCE })));
    expect(jwtAt.subject).toBe('person-1');
  });

  it('allows a small clock skew', async () => {
    await expect(verifier({ kind: 'cognito' }).verifyIdToken(await sign(idClaims({ exp: now() - 10 })), { nonce: 'n-1' })).resolves.toBeTruthy();
  });

  const forgedIdTokens: [string, () => Promise<string>][] = [
    ['alg none', async () => unsigned(idClaims())],
    ['HS256 keyed with the public key', async () => sign(idClaims(), { alg: 'HS256', key: new TextEncoder().encode(publicPem) })],
    ['signed by another key under the same kid', async () => sign(idClaims(), { key: strangerKey })],
    ['an unknown kid', async () => sign(idClaims(), { kid: 'k2', key: strangerKey })],
    ['another issuer', async () => sign(idClaims({ iss: `${issuer}/other` }))],
    ['another audience', async () => sign(idClaims({ aud: 'someone-else' }))],
    ['several audiences, azp another client', async () => sign(idClaims({ aud: [CLIENT, 'x'], azp: 'x' }))],
    ['expired beyond the skew', async () => sign(idClaims({ exp: now() - 120 }))],
    ['not yet valid', async () => sign(idClaims({ nbf: now() + 120 }))],
    ['no exp', async () => sign(idClaims({ exp: undefined }))],
    ['another nonce', async () => sign(idClaims({ nonce: 'n-2' }))],
    ['no nonce', async () => sign(idClaims({ nonce: undefined }))],
    ['a Cognito access token', async () => sign(idClaims({ token_use: 'access' }))],
    [
      'a tampered payload',
      async () => (await sign(idClaims())).replace(/\.[^.]+\./, `.${Buffer.from(JSON.stringify(idClaims({ sub: 'admin' }))).toString('base64url')}.`),
    ],
  ];
  it.each(forgedIdTokens)('refuses an ID token: %s', async (_name, make) => {
    await expect(verifier({ kind: 'cognito' }).verifyIdToken(await make(), { nonce: 'n-1' })).rejects.toBeInstanceOf(IdentityTokenRejected);
  });

  const forgedAccessTokens: [string, IdentityIssuer['accessToken'], () => Promise<string>][] = [
    ['alg none', { kind: 'cognito' }, async () => unsigned(accessClaims({ token_use: 'access' }))],
    [
      'HS256 keyed with the public key',
      { kind: 'cognito' },
      async () => sign(accessClaims({ token_use: 'access' }), { alg: 'HS256', key: new TextEncoder().encode(publicPem) }),
    ],
    ['Cognito: another client', { kind: 'cognito' }, async () => sign(accessClaims({ token_use: 'access', client_id: 'other' }))],
    ['Cognito: an ID token', { kind: 'cognito' }, async () => sign(accessClaims({ token_use: 'id' }))],
    ['Cognito: no token_use', { kind: 'cognito' }, async () => sign(accessClaims())],
    ['Cognito: another issuer', { kind: 'cognito' }, async () => sign(accessClaims({ token_use: 'access', iss: 'https://cognito-idp.example/other' }))],
    ['Cognito: expired', { kind: 'cognito' }, async () => sign(accessClaims({ token_use: 'access', exp: now() - 120 }))],
    ['audience: another audience', { kind: 'audience', audience: AUDIENCE }, async () => sign(accessClaims({ aud: 'urn:other' }))],
    ['audience: no audience', { kind: 'audience', audience: AUDIENCE }, async () => sign(accessClaims())],
    ['audience: another client', { kind: 'audience', audience: AUDIENCE }, async () => sign(accessClaims({ aud: AUDIENCE, client_id: 'other' }))],
    ['audience: the ID token', { kind: 'audience', audience: AUDIENCE }, async () => sign(idClaims())],
  ];
  it.each(forgedAccessTokens)('refuses an access token: %s', async (_name, rule, make) => {
    await expect(verifier(rule).verifyAccessToken(await make())).rejects.toBeInstanceOf(IdentityTokenRejected);
  });

  it('refuses to trust an issuer whose discovery document names another issuer', async () => {
    const v = new JoseIdentityVerifier({ issuer: `${issuer}/`, clientId: CLIENT, accessToken: { kind: 'cognito' } });
    await expect(v.verifyIdToken(await sign(idClaims()), { nonce: 'n-1' })).rejects.toThrow(/OpenID discovery/);
  });
});
