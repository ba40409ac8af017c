/**
 * Console sessions for tests that are not about signing in: a session item written with the platform's
 * own session store, for a demo member (the same person the embedded provider signs in) or for an
 * outsider who owns an org of their own. The sign-in tests walk the real redirects instead.
 */
import { newConsoleSessionId } from '../../functions/tenancy/domain/console-session';
import { userKeyOf } from '../../functions/tenancy/domain/members';
import type { Role } from '../../functions/tenancy/domain/roles';
import { CookieBrowser, formAction } from './cookie-browser';
import type { TestPlatform, TestResponse } from './platform';

export interface ConsoleCaller {
  readonly cookie: string;
  readonly userKey: string;
  /** Calls a console route with the session cookie (and the custom header unless told otherwise). */
  call(method: string, path: string, init?: { body?: unknown; header?: boolean; headers?: Record<string, string> }): Promise<TestResponse>;
}

const nowS = () => Math.floor(Date.now() / 1000);

/** A session for `person`, valid for `ttlS` (negative: already expired). */
export async function consoleSessionFor(p: TestPlatform, person: { issuer: string; subject: string; email: string }, ttlS = 3600): Promise<ConsoleCaller> {
  const sessionId = newConsoleSessionId();
  const expiresAtS = nowS() + ttlS;
  await p.deps.consoleSessions.create(sessionId, {
    person,
    tokens: { idToken: 'test', accessToken: 'test', expiresAtS: Math.max(expiresAtS, nowS() + 60) },
    expiresAtS,
  });
  const cookie = `__Host-console-session=${sessionId}`;
  return {
    cookie,
    userKey: userKeyOf(person),
    call: (method, path, init = {}) =>
      p.call(method, path, {
        ...(init.body !== undefined ? { body: init.body } : {}),
        headers: { Cookie: cookie, ...(init.header === false ? {} : { 'X-Console-Request': '1' }), ...(init.headers ?? {}) },
      }),
  };
}

const issuerOf = (p: TestPlatform) => {
  if (!p.consoleSignIn) throw new Error('start the platform with consoleSignIn');
  return p.consoleSignIn.settings.issuer.issuer;
};

/** A seeded member of the demo org (start the platform with `seed: true` and `consoleSignIn`). */
export function demoMember(p: TestPlatform, role: Role): Promise<ConsoleCaller> {
  return consoleSessionFor(p, { issuer: issuerOf(p), subject: `demo-${role}`, email: `${role}@demo.local` });
}

/** Someone who owns an org of their own and is in no other: for every org but theirs, a stranger. */
export async function outsider(p: TestPlatform, name = 'outsider'): Promise<ConsoleCaller & { orgId: string }> {
  const person = { issuer: issuerOf(p), subject: `test-${name}`, email: `${name}@elsewhere.test` };
  const org = await p.admin('POST', '/orgs', { name: `Org of ${name}`, plan: 'paid' });
  if (org.status !== 201) throw new Error(`org not created: ${org.status} ${org.text}`);
  const caller = await consoleSessionFor(p, person);
  await p.deps.members.put({ orgId: org.body.data.id, userKey: caller.userKey, email: person.email, role: 'owner', joinedAtUs: Date.now() * 1000 });
  await p.deps.members.addOwner(org.body.data.id, caller.userKey);
  return { ...caller, orgId: org.body.data.id };
}

/**
 * Signs a seeded user in the way a browser does: the platform's login redirect, the embedded issuer's
 * own login page and form, the callback that sets the session cookie. Nothing of the project is stood in for.
 */
export async function signInThroughIssuer(p: TestPlatform, role: Role): Promise<ConsoleCaller & { browser: CookieBrowser }> {
  const browser = new CookieBrowser();
  const login = await browser.request(`${p.baseUrl}/console/auth/login`);
  if (login.status !== 302) throw new Error(`login: ${login.status}`);
  const page = await browser.follow(login.headers.get('location')!);
  const user = p.consoleSignIn!.users.find((u) => u.role === role)!;
  const back = await browser.follow(formAction(await page.res.text(), page.url), { method: 'POST', form: { email: user.email, password: user.password } });
  const done = await browser.request(back.url);
  if (done.status !== 302 || !browser.jar.has('__Host-console-session')) throw new Error(`callback: ${done.status}`);
  const cookie = `__Host-console-session=${browser.jar.get('__Host-console-session')}`;
  return {
    browser,
    cookie,
    userKey: userKeyOf({ issuer: issuerOf(p), subject: `demo-${role}` }),
    call: (method, path, init = {}) =>
      p.call(method, path, {
        ...(init.body !== undefined ? { body: init.body } : {}),
        headers: { Cookie: cookie, ...(init.header === false ? {} : { 'X-Console-Request': '1' }), ...(init.headers ?? {}) },
      }),
  };
}
