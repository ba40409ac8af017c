/**
 * The console's sign-in routes over HTTP, as a browser walks them: the platform's login redirect, the
 * embedded provider's login page, the callback, the session cookie, the session, logout. Also what must
 * fail: a forged or missing cookie, a replayed callback, a callback in another browser, a foreign return
 * URL, and a platform with no issuer configured.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { permissionsOf } from '../../functions/tenancy/domain/roles';
import { TestClock } from '../support/clock';
import { CookieBrowser, formAction } from '../support/cookie-browser';
import { type TestPlatform, usePlatform } from '../support/platform';

const SESSION_COOKIE = /^__Host-console-session=[A-Za-z0-9_-]{43}; Path=\/; Secure; HttpOnly; SameSite=Strict; Max-Age=28800$/;
const LOGIN_COOKIE = /^__Host-console-login=[A-Za-z0-9_-]{43}; Path=\/; Secure; HttpOnly; SameSite=Lax; Max-Age=600$/;

describe('console sign-in routes', () => {
  let p: TestPlatform;
  usePlatform({ consoleSignIn: { kind: 'embedded', port: 0 }, seed: true }, (x) => {
    p = x;
  });
  const user = (role: string) => p.consoleSignIn!.users.find((u) => u.role === role)!;

  /** Login, the provider's form, up to the redirect back to the callback (not yet followed). */
  async function toCallback(browser: CookieBrowser, role: string, returnTo = '/console/apps?tab=keys') {
    const login = await browser.request(`${p.baseUrl}/console/auth/login?return=${encodeURIComponent(returnTo)}`);
    expect(login.status).toBe(302);
    expect(login.headers.getSetCookie()).toEqual([expect.stringMatching(LOGIN_COOKIE)]);
    const issuerUrl = login.headers.get('location')!;
    expect(issuerUrl.startsWith(p.consoleSignIn!.settings.issuer.issuer)).toBe(true);
    const page = await browser.follow(issuerUrl);
    const { email, password } = user(role);
    const back = await browser.follow(formAction(await page.res.text(), page.url), { method: 'POST', form: { email, password } });
    expect(back.url.startsWith(`${p.baseUrl}/console/auth/callback?`)).toBe(true);
    return back.url;
  }

  async function signIn(role: string, returnTo?: string) {
    const browser = new CookieBrowser();
    const callbackUrl = await toCallback(browser, role, returnTo);
    const res = await browser.request(callbackUrl);
    return { browser, res, callbackUrl };
  }

  const session = (browser: CookieBrowser) => browser.request(`${p.baseUrl}/console/auth/session`);

  for (const role of ['owner', 'viewer'] as const) {
    it(`signs the demo ${role} in: session cookie, login cookie cleared, the demo org with the ${role} role`, async () => {
      const { browser, res } = await signIn(role);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/console/apps?tab=keys');
      const cookies = res.headers.getSetCookie();
      expect(cookies).toHaveLength(2);
      expect(cookies[0]).toMatch(SESSION_COOKIE);
      expect(cookies[1]).toBe('__Host-console-login=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0');
      const me = await session(browser);
      expect(me.status).toBe(200);
      expect(await me.json()).toEqual({
        person: { email: `${role}@demo.local` },
        orgs: [{ orgId: p.demo!.orgId, name: expect.any(String), role, permissions: permissionsOf(role) }],
      });
    });
  }

  it('saves where to sign in, the issuer and the seeded people in demo.json beside the keys', () => {
    const demo = JSON.parse(readFileSync(join(p.dataDir, 'demo.json'), 'utf8'));
    expect(demo.consoleUrl).toBe(`${p.baseUrl}/console/`);
    expect(demo.oidcIssuer).toBe(p.consoleSignIn!.settings.issuer.issuer);
    expect(demo.consoleUsers.map((u: { role: string | null }) => u.role)).toEqual(['owner', 'admin', 'developer', 'viewer', null]);
    expect(demo.consoleUsers.at(-1).email).toBe('newcomer@demo.local');
  });

  it('logs out only with the custom header; the session is gone afterwards', async () => {
    const { browser } = await signIn('developer');
    const kept = new Map(browser.jar);
    const refused = await browser.request(`${p.baseUrl}/console/auth/logout`, { method: 'POST' });
    expect(refused.status).toBe(403);
    expect((await session(browser)).status).toBe(200);
    const out = await browser.request(`${p.baseUrl}/console/auth/logout`, { method: 'POST', headers: { 'X-Console-Request': '1' } });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie()).toEqual(['__Host-console-session=; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=0']);
    const { logoutUrl } = (await out.json()) as { logoutUrl: string };
    expect(logoutUrl.startsWith(p.consoleSignIn!.settings.issuer.issuer)).toBe(true);
    // The old cookie, replayed, names no session.
    for (const [k, v] of kept) browser.jar.set(k, v);
    expect((await session(browser)).status).toBe(401);
  });

  it('answers 401 in the area’s error shape to a missing or forged session cookie', async () => {
    const none = await fetch(`${p.baseUrl}/console/auth/session`);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ error: { code: 'unauthorized', message: 'Not signed in to the console' } });
    const forged = await fetch(`${p.baseUrl}/console/auth/session`, { headers: { cookie: `__Host-console-session=${'A'.repeat(43)}` } });
    expect(forged.status).toBe(401);
  });

  it('refuses a replayed callback and a callback in a browser that did not start the login, with no session', async () => {
    const { browser, callbackUrl } = await signIn('admin');
    const replay = await browser.request(callbackUrl);
    expect(replay.status).toBe(401);
    expect(replay.headers.getSetCookie()).toEqual([]);
    expect(((await replay.json()) as { error: { message: string } }).error.message).toMatch(/start again/);

    const other = new CookieBrowser();
    const url = await toCallback(other, 'owner');
    const stranger = await fetch(url, { redirect: 'manual' });
    expect(stranger.status).toBe(401);
    expect(stranger.headers.getSetCookie()).toEqual([]);
  });

  it('refuses a code the issuer did not issue, with no session, and the state is spent', async () => {
    const browser = new CookieBrowser();
    const url = new URL(await toCallback(browser, 'owner'));
    url.searchParams.set('code', 'not-a-code');
    const res = await browser.request(url.toString());
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await res.json()).toEqual({ error: { code: 'unauthorized', message: 'The issuer did not accept the sign-in code; start again' } });
    expect((await session(browser)).status).toBe(401);
  });

  it('does not follow a return URL of another origin, and answers an issuer error as 401', async () => {
    const { res } = await signIn('owner', 'https://evil.example/');
    expect(res.headers.get('location')).toBe('/console/');
    const refused = await fetch(`${p.baseUrl}/console/auth/callback?error=access_denied&state=x`, { redirect: 'manual' });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
  });
});

describe('console sign-in routes without an issuer', () => {
  let p: TestPlatform;
  usePlatform({}, (x) => {
    p = x;
  });

  it('answer 503 "not configured" rather than fail', async () => {
    const res = await fetch(`${p.baseUrl}/console/auth/login`, { redirect: 'manual' });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: { code: 'unavailable', message: 'Console sign-in is not configured' } });
  });
});

describe('a console session past its access token', () => {
  let p: TestPlatform;
  const clock = new TestClock();
  usePlatform({ consoleSignIn: { kind: 'embedded', port: 0 }, seed: true, clock }, (x) => {
    p = x;
  });

  it('is refreshed with its refresh token, and ended when the refresh fails', async () => {
    const browser = new CookieBrowser();
    const login = await browser.request(`${p.baseUrl}/console/auth/login`);
    const page = await browser.follow(login.headers.get('location')!);
    const { email, password } = p.consoleSignIn!.users.find((u) => u.role === 'developer')!;
    const back = await browser.follow(formAction(await page.res.text(), page.url), { method: 'POST', form: { email, password } });
    expect((await browser.request(back.url)).status).toBe(302);
    // Two hours on: the access token (ten minutes from the embedded issuer) has expired, the session (eight hours) has not.
    clock.advance(2 * 60 * 60 * 1000);
    const me = await browser.request(`${p.baseUrl}/console/auth/session`);
    expect(me.status).toBe(200);
    expect(((await me.json()) as { orgs: { role: string }[] }).orgs.map((o) => o.role)).toEqual(['developer']);
    // Two hours more: the refreshed token has expired too, and a refresh token the issuer refuses ends the session.
    clock.advance(2 * 60 * 60 * 1000);
    await p.deps.consoleSessions.replaceTokens(browser.jar.get('__Host-console-session')!, {
      idToken: 'x',
      accessToken: 'x',
      refreshToken: 'not-a-refresh-token',
      expiresAtS: 0,
    });
    expect((await browser.request(`${p.baseUrl}/console/auth/session`)).status).toBe(401);
    expect((await browser.request(`${p.baseUrl}/console/auth/session`)).status).toBe(401);
  });
});
