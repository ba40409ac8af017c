import { describe, expect, it } from 'vitest';
import { clearedSessionCookie, newConsoleSessionId, readSessionCookie, safeReturnPath, sessionCookie } from '../../functions/tenancy/domain/console-session';

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

  it('returns only to a path of its own origin', () => {
    expect(safeReturnPath('/console/apps?x=1')).toBe('/console/apps?x=1');
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example', 'javascript:alert(1)', '/a\nb', '', undefined]) {
      expect(safeReturnPath(bad)).toBe('/console/');
    }
  });
});
