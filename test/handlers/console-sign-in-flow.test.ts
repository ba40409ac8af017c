/**
 * The console's sign-in over HTTP, without a browser: the local platform with its embedded OpenID
 * provider, a small cookie-keeping client, the real authorization-code + PKCE client and the real
 * verifier. The seeded owner signs in; a wrong password is refused; a tampered token is refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConsoleSignInSettings } from '../../functions/local/console-sign-in';
import { startEmbeddedOidcProvider } from '../../functions/local/embedded-oidc-provider';
import { JoseIdentityVerifier } from '../../functions/tenancy/adapters/jose-identity-verifier';
import { OidcCodeFlowClient } from '../../functions/tenancy/adapters/oidc-code-flow-client';
import { IdentityTokenRejected } from '../../functions/tenancy/app/identity-ports';
import { CookieBrowser, formAction } from '../support/cookie-browser';
import { type TestPlatform, usePlatform } from '../support/platform';

function clientFor(s: ConsoleSignInSettings): OidcCodeFlowClient {
  return new OidcCodeFlowClient({
    issuer: s.issuer.issuer,
    clientId: s.issuer.clientId,
    clientSecret: s.clientSecret,
    redirectUri: s.redirectUri,
    scopes: s.scopes,
    ...(s.resource ? { resource: s.resource } : {}),
  });
}

/** The whole flow as a browser and the console's backend would run it; returns the tokens and the login's nonce. */
async function signIn(s: ConsoleSignInSettings, email: string, password: string) {
  const client = clientFor(s);
  const start = await client.beginSignIn();
  const browser = new CookieBrowser();
  const login = await browser.follow(start.url);
  const back = await browser.follow(formAction(await login.res.text(), login.url), { method: 'POST', form: { email, password } });
  const tokens = await client.exchangeCode(new URL(back.url).searchParams.get('code')!, start.codeVerifier);
  return { client, tokens, nonce: start.nonce };
}

describe('console sign-in against the embedded OpenID provider', () => {
  let p: TestPlatform;
  usePlatform({ consoleSignIn: { kind: 'embedded', port: 0 } }, (x) => {
    p = x;
  });

  const setup = () => {
    const s = p.consoleSignIn!.settings;
    return { s, client: clientFor(s), verifier: new JoseIdentityVerifier(s.issuer) };
  };
  const user = (role: string) => p.consoleSignIn!.users.find((u) => u.role === role)!;
  const owner = () => user('owner');

  it('signs the seeded owner in: authorization URL, login page, code, token exchange, verified tokens, refresh', async () => {
    const { s, client, verifier } = setup();
    const start = await client.beginSignIn();
    const browser = new CookieBrowser();
    const login = await browser.follow(start.url);
    expect(login.res.status).toBe(200);
    const html = await login.res.text();
    expect(html).toContain('<h1>Sign in</h1>');
    expect(html).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1)/);
    const { email, password } = owner();
    const back = await browser.follow(formAction(html, login.url), { method: 'POST', form: { email, password } });
    const callback = new URL(back.url);
    expect(`${callback.origin}${callback.pathname}`).toBe(s.redirectUri);
    expect(callback.searchParams.get('state')).toBe(start.state);
    const tokens = await client.exchangeCode(callback.searchParams.get('code')!, start.codeVerifier);
    expect(await verifier.verifyIdToken(tokens.idToken, { nonce: start.nonce })).toEqual({
      issuer: s.issuer.issuer,
      subject: 'demo-owner',
      email: 'owner@demo.local',
    });
    const access = await verifier.verifyAccessToken(tokens.accessToken);
    expect(access).toMatchObject({ subject: 'demo-owner', clientId: 'console' });
    expect(tokens.refreshToken).toBeTruthy();
    const refreshed = await client.refresh(tokens.refreshToken!);
    expect((await verifier.verifyAccessToken(refreshed.accessToken)).subject).toBe('demo-owner');
    // The code is single-use.
    await expect(client.exchangeCode(callback.searchParams.get('code')!, start.codeVerifier)).rejects.toThrow(/invalid_grant/);
  });

  it('refuses a wrong password and shows the form again', async () => {
    const { client } = setup();
    const browser = new CookieBrowser();
    const login = await browser.follow((await client.beginSignIn()).url);
    const html = await login.res.text();
    const res = await browser.request(formAction(html, login.url), { method: 'POST', form: { email: owner().email, password: 'not-the-password' } });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('Wrong e-mail or password.');
  });

  it('refuses a tampered token, an ID token of another login, and a code without its verifier', async () => {
    const { client, verifier } = setup();
    const start = await client.beginSignIn();
    const browser = new CookieBrowser();
    const login = await browser.follow(start.url);
    const { email, password } = user('viewer');
    const back = await browser.follow(formAction(await login.res.text(), login.url), { method: 'POST', form: { email, password } });
    const code = new URL(back.url).searchParams.get('code')!;
    await expect(client.exchangeCode(code, 'x'.repeat(43))).rejects.toThrow(/invalid_grant/);
    const again = await client.beginSignIn();
    const login2 = await browser.follow(again.url);
    const tokens = await client.exchangeCode(new URL(login2.url).searchParams.get('code')!, again.codeVerifier);
    const [h, payload, sig] = tokens.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'demo-owner' })).toString('base64url')}.${sig}`;
    await expect(verifier.verifyAccessToken(forged)).rejects.toBeInstanceOf(IdentityTokenRejected);
    await expect(verifier.verifyIdToken(tokens.idToken, { nonce: start.nonce })).rejects.toBeInstanceOf(IdentityTokenRejected);
    expect((await verifier.verifyIdToken(tokens.idToken, { nonce: again.nonce })).subject).toBe('demo-viewer');
  });
});

describe('the embedded OpenID provider across a restart', () => {
  it('keeps its signing key, its people and their refresh tokens in the data folder', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'oidc-restart-'));
    const opts = { dataDir, host: '127.0.0.1', consoleBaseUrl: 'http://127.0.0.1:1' };
    try {
      const first = await startEmbeddedOidcProvider({ ...opts, port: 0 });
      const owner = first.users.find((u) => u.role === 'owner')!;
      const { tokens } = await signIn(first.settings, owner.email, owner.password);
      await first.stop();
      // fetch's connection pool learns of the closed keep-alive sockets on its next turns, not at once.
      await new Promise((r) => setTimeout(r, 100));
      const second = await startEmbeddedOidcProvider({ ...opts, port: Number(new URL(first.settings.issuer.issuer).port) });
      try {
        expect(second.users).toEqual(first.users);
        const verifier = new JoseIdentityVerifier(second.settings.issuer);
        expect((await verifier.verifyAccessToken(tokens.accessToken)).subject).toBe('demo-owner');
        const refreshed = await clientFor(second.settings).refresh(tokens.refreshToken!);
        expect((await verifier.verifyAccessToken(refreshed.accessToken)).subject).toBe('demo-owner');
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
