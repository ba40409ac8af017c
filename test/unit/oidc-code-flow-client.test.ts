/**
 * The authorization-code + PKCE client against a loopback issuer that checks what a token endpoint
 * checks: client_secret_basic, the redirect URI and the S256 challenge of the code it issued.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OidcCodeFlowClient } from '../../functions/tenancy/adapters/oidc-code-flow-client';

const REDIRECT = 'http://localhost:3000/console/auth/callback';
const SECRET = 'sec ret:+/';
let server: Server;
let issuer: string;
const challenges = new Map<string, string>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/.well-known/openid-configuration') {
      res.end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          end_session_endpoint: `${issuer}/session/end`,
        }),
      );
      return;
    }
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const expected = `Basic ${Buffer.from(`console-client:${encodeURIComponent(SECRET).replace(/%20/g, '+')}`).toString('base64')}`;
      if (req.headers.authorization !== expected) return void res.writeHead(401).end(JSON.stringify({ error: 'invalid_client' }));
      if (form.get('grant_type') === 'authorization_code') {
        const challenge = challenges.get(form.get('code') ?? '');
        const verifier = createHash('sha256')
          .update(form.get('code_verifier') ?? '')
          .digest('base64url');
        if (!challenge || challenge !== verifier || form.get('redirect_uri') !== REDIRECT) {
          return void res.writeHead(400).end(JSON.stringify({ error: 'invalid_grant' }));
        }
        return void res.end(JSON.stringify({ id_token: 'id-1', access_token: 'at-1', refresh_token: 'rt-1', expires_in: 600, token_type: 'Bearer' }));
      }
      if (form.get('grant_type') === 'refresh_token' && form.get('refresh_token') === 'rt-1') {
        return void res.end(JSON.stringify({ id_token: 'id-2', access_token: 'at-2', expires_in: 600, token_type: 'Bearer' }));
      }
      res.writeHead(400).end(JSON.stringify({ error: 'invalid_grant' }));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

const client = () => new OidcCodeFlowClient({ issuer, clientId: 'console-client', clientSecret: SECRET, redirectUri: REDIRECT, nowS: () => 1000 });

describe('OidcCodeFlowClient', () => {
  it('builds the authorization URL with state, nonce and an S256 challenge, each fresh', async () => {
    const a = await client().beginSignIn();
    const b = await client().beginSignIn();
    const url = new URL(a.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${issuer}/auth`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'console-client',
      redirect_uri: REDIRECT,
      scope: 'openid email',
      state: a.state,
      nonce: a.nonce,
      code_challenge_method: 'S256',
      code_challenge: createHash('sha256').update(a.codeVerifier).digest('base64url'),
    });
    expect(a.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set([a.state, a.nonce, a.codeVerifier, b.state, b.nonce, b.codeVerifier]).size).toBe(6);
  });

  it('exchanges the code with the verifier and refreshes, keeping a refresh token the issuer did not rotate', async () => {
    const start = await client().beginSignIn();
    challenges.set('code-1', new URL(start.url).searchParams.get('code_challenge')!);
    const tokens = await client().exchangeCode('code-1', start.codeVerifier);
    expect(tokens).toEqual({ idToken: 'id-1', accessToken: 'at-1', refreshToken: 'rt-1', expiresAtS: 1600 });
    expect(await client().refresh('rt-1')).toEqual({ idToken: 'id-2', accessToken: 'at-2', refreshToken: 'rt-1', expiresAtS: 1600 });
  });

  it('fails on a verifier that does not match the challenge, and on a wrong secret', async () => {
    const start = await client().beginSignIn();
    challenges.set('code-2', new URL(start.url).searchParams.get('code_challenge')!);
    await expect(client().exchangeCode('code-2', 'x'.repeat(43))).rejects.toThrow(/invalid_grant/);
    const wrong = new OidcCodeFlowClient({ issuer, clientId: 'console-client', clientSecret: 'nope', redirectUri: REDIRECT });
    await expect(wrong.exchangeCode('code-2', start.codeVerifier)).rejects.toThrow(/401 invalid_client/);
  });

  it('builds the RP-initiated logout URL', async () => {
    const url = new URL(await client().logoutUrl({ idTokenHint: 'id-1', postLogoutRedirectUri: 'http://localhost:3000/console/' }));
    expect(`${url.origin}${url.pathname}`).toBe(`${issuer}/session/end`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'console-client',
      id_token_hint: 'id-1',
      post_logout_redirect_uri: 'http://localhost:3000/console/',
    });
  });
});
