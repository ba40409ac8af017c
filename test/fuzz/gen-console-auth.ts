/**
 * The console's "key of another class": its credential is a session cookie plus a custom header on
 * state-changing calls, so the hostile versions are a missing, forged or malformed cookie, an expired
 * session, a session of someone who is not a member of the org, a bearer key instead of the cookie, a missing custom
 * header and a foreign Origin. On the routes the console kit admits, the contract is exact: no
 * session is a 401, a forged call (no custom header) a 403 before any session is read, a stranger
 * a 404 as for an org that does not exist. The sign-in routes read the cookie themselves: there the
 * answer only has to be a documented one.
 */
import fc from 'fast-check';
import { credentialsOf, headersWithType, render, replaceHeader, type Base, type FuzzContext } from './base-request';
import { CONSOLE_REQUEST_HEADER, CONSOLE_SESSION_COOKIE } from './console-tenant';
import type { HostileRequest } from './hostile-request';

/** Cookie headers that name no session: unknown, malformed, misnamed or quoted ids. */
function forgedCookies(session: string): string[] {
  const unknown = session.slice(0, -1) + (session.endsWith('A') ? 'B' : 'A');
  return [
    `${CONSOLE_SESSION_COOKIE}=${unknown}`,
    `${CONSOLE_SESSION_COOKIE}=`,
    `${CONSOLE_SESSION_COOKIE}`,
    `${CONSOLE_SESSION_COOKIE}=${session}x`,
    `${CONSOLE_SESSION_COOKIE}=${session.slice(1)}`,
    `${CONSOLE_SESSION_COOKIE}="${session}"`,
    `${CONSOLE_SESSION_COOKIE}=${session.slice(0, -2)}%41`,
    `${CONSOLE_SESSION_COOKIE.toLowerCase()}=${session}`,
    `console-session=${session}`,
    `${CONSOLE_SESSION_COOKIE}=${'A'.repeat(43)}`,
    `${CONSOLE_SESSION_COOKIE}=${'.'.repeat(43)}`,
    `${CONSOLE_SESSION_COOKIE}=__proto__`,
    '__proto__=1; constructor=2',
    ';;;=;',
    `${CONSOLE_SESSION_COOKIE}=${'x'.repeat(4000)}`,
  ];
}

/** Cookie headers that still carry the session among other cookies: the answer must not depend on them. */
function crowdedCookies(session: string): string[] {
  const cookie = `${CONSOLE_SESSION_COOKIE}=${session}`;
  return [
    `a=b; ${cookie}; c=d`,
    `${cookie};`,
    ` ${cookie} `,
    `${cookie}; ${CONSOLE_SESSION_COOKIE}=short`,
    `${CONSOLE_SESSION_COOKIE}=; ${cookie}`,
    `__Host-console-login=${'B'.repeat(43)}; ${cookie}`,
    `${cookie}; x=\u00ff\u00fe`,
  ];
}

export function consoleAuthArb(ctx: FuzzContext, base: Base): fc.Arbitrary<HostileRequest> {
  const session = base.session!;
  const admitted = base.op.security === 'consoleSession';
  const headers = headersWithType(base);
  const expect = (statuses: number[]) => (admitted ? { expect: statuses } : {});
  const withCookie = (variant: string, cookie: string | undefined, statuses?: number[]) =>
    render(base, { cls: 'header', variant, headers: replaceHeader(headers, 'Cookie', cookie), ...(statuses ? expect(statuses) : {}) });
  const strangers = ctx.tenants.filter((t) => t !== base.tenant).map((t) => t.console.sessionId);
  const ofAnOrg = base.op.pathParams.includes('orgId');
  const arbs: fc.Arbitrary<HostileRequest>[] = [
    fc.constant(withCookie('no session cookie', undefined, [401])),
    fc.constantFrom(...forgedCookies(session)).map((c) => withCookie('forged session cookie', c, [401])),
    fc.constant(withCookie('session whose sign-in expired', `${CONSOLE_SESSION_COOKIE}=${base.tenant.console.expiredSessionId}`, [401])),
    fc.constantFrom(...crowdedCookies(session)).map((c) => withCookie('session cookie among others', c)),
    fc.constantFrom(...credentialsOf(base.tenant, ctx)).map((key) =>
      render(base, {
        cls: 'header',
        variant: 'bearer key instead of the session cookie',
        headers: [...replaceHeader(headers, 'Cookie', undefined), ['Authorization', `Bearer ${key}`]],
        ...expect([401]),
      }),
    ),
    fc
      .constantFrom('https://evil.example', 'null', `http://${ctx.hostHeader}`, '')
      .map((origin) => render(base, { cls: 'header', variant: 'foreign Origin', headers: [...headers, ['Origin', origin]] })),
    fc
      .constantFrom('', '0', 'x'.repeat(2000))
      .map((v) => render(base, { cls: 'header', variant: `odd ${CONSOLE_REQUEST_HEADER}`, headers: replaceHeader(headers, CONSOLE_REQUEST_HEADER, v) })),
    fc.constant(
      render(base, {
        cls: 'header',
        variant: `no ${CONSOLE_REQUEST_HEADER}`,
        headers: replaceHeader(headers, CONSOLE_REQUEST_HEADER, undefined),
        // Only a state-changing call needs it; a read without it is the base request.
        ...(base.op.method !== 'GET' ? expect([403]) : {}),
      }),
    ),
  ];
  if (strangers.length)
    arbs.push(
      fc.constantFrom(...strangers).map((s) => withCookie('session of a member of another org', `${CONSOLE_SESSION_COOKIE}=${s}`, ofAnOrg ? [404] : undefined)),
    );
  return fc.oneof(...arbs);
}
