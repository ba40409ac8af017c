import { describe, expect, it } from 'vitest';
import {
  clearedLoginCookie,
  clearedSessionCookie,
  loginCookie,
  newConsoleSessionId,
  readLoginCookie,
  readSessionCookie,
  safeReturnPath,
  sessionCookie,
} from '../../functions/tenancy/domain/console-session';
import { randomUrlToken } from '../../functions/tenancy/domain/pkce';

describe('the console session cookie', () => {
  it('is __Host-, Secure, HttpOnly, SameSite=Strict, Path=/ and has no Domain', () => {
    const id = newConsoleSessionId();
    const cookie = sessionCookie(id, 3600);
    expect(cookie).toBe(`__Host-console-session=${id}; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=3600`);
    expect(cookie).not.toMatch(/domain/i);
    expect(clearedSessionCookie()).toMatch(/^__Host-console-session=; Path=\/; Secure; HttpOnly; SameSite=Strict; Max-Age=0$/);
  });

  it('reads only a well-formed id from the Cookie header', () => {
    const id = newConsoleSessionId();
    expect(readSessionCookie(`a=b; __Host-console-session=${id}; c=d`)).toBe(id);
    expect(readSessionCookie('console-session=x')).toBeUndefined();
    expect(readSessionCookie(`__Host-console-session=${id}x`)).toBeUndefined();
    expect(readSessionCookie(undefined)).toBeUndefined();
  });

  it('binds a login with a Lax cookie (the callback comes from the issuer site), read back by its own name', () => {
    const state = randomUrlToken();
    expect(loginCookie(state)).toBe(`__Host-console-login=${state}; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=600`);
    expect(clearedLoginCookie()).toMatch(/^__Host-console-login=; .*Max-Age=0$/);
    expect(readLoginCookie(`__Host-console-session=${newConsoleSessionId()}; __Host-console-login=${state}`)).toBe(state);
    expect(readSessionCookie(`__Host-console-login=${state}`)).toBeUndefined();
  });

  it('returns only to a path of its own origin', () => {
    expect(safeReturnPath('/console/apps?x=1')).toBe('/console/apps?x=1');
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example', 'javascript:alert(1)', '/a\nb', '', undefined]) {
      expect(safeReturnPath(bad)).toBe('/console/');
    }
  });
});
