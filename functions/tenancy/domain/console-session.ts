/**
 * The console's session cookie and ids (docs/adr/0041). The cookie holds a random id; storage holds only
 * its SHA-256, so a read of the table gives no one a session. The cookie is always `__Host-`, `Secure`,
 * `HttpOnly`, `SameSite=Strict`, `Path=/` and has no `Domain`: browsers treat http://localhost as a
 * secure context and keep such a cookie there, so the local platform needs no weaker variant; any
 * other origin must be HTTPS.
 */
import { createHash, randomBytes } from 'node:crypto';

export const CONSOLE_SESSION_COOKIE = '__Host-console-session';
/** Binds a login's `state` to the browser that started it, until the callback. */
export const CONSOLE_LOGIN_COOKIE = '__Host-console-login';
/** Every state-changing console call carries this header: a cross-site form cannot set it. */
export const CONSOLE_CSRF_HEADER = 'x-console-request';
export const CONSOLE_SESSION_TTL_S = 8 * 60 * 60;
export const LOGIN_STATE_TTL_S = 10 * 60;

/** 32 random bytes, base64url. */
export function newConsoleSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/** What storage keys a session by. */
export function consoleSessionHash(sessionId: string): string {
  return createHash('sha256').update(sessionId, 'utf8').digest('hex');
}

const ATTRIBUTES = 'Path=/; Secure; HttpOnly; SameSite=Strict';

export function sessionCookie(sessionId: string, maxAgeS: number = CONSOLE_SESSION_TTL_S): string {
  return `${CONSOLE_SESSION_COOKIE}=${sessionId}; ${ATTRIBUTES}; Max-Age=${Math.max(0, Math.floor(maxAgeS))}`;
}

export function clearedSessionCookie(): string {
  return `${CONSOLE_SESSION_COOKIE}=; ${ATTRIBUTES}; Max-Age=0`;
}

/**
 * The login cookie is `SameSite=Lax`, not Strict: the callback is a top-level navigation from the
 * issuer's site, on which a Strict cookie is not sent. It holds only the state and lives as long as it.
 */
export function loginCookie(state: string, maxAgeS: number = LOGIN_STATE_TTL_S): string {
  return `${CONSOLE_LOGIN_COOKIE}=${state}; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=${Math.max(0, Math.floor(maxAgeS))}`;
}

export function clearedLoginCookie(): string {
  return `${CONSOLE_LOGIN_COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0`;
}

/** A 43-character base64url value (a session id, a login state) of the named cookie in a `Cookie` header. */
function readTokenCookie(cookieHeader: string | undefined, name: string): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    if (/^[A-Za-z0-9_-]{43}$/.test(value)) return value;
  }
  return undefined;
}

/** The session id from a `Cookie` header; only a well-formed id counts. */
export function readSessionCookie(cookieHeader: string | undefined): string | undefined {
  return readTokenCookie(cookieHeader, CONSOLE_SESSION_COOKIE);
}

/** The login state from a `Cookie` header (the states the code-flow client makes are 43 characters). */
export function readLoginCookie(cookieHeader: string | undefined): string | undefined {
  return readTokenCookie(cookieHeader, CONSOLE_LOGIN_COOKIE);
}

/**
 * Where to land after sign-in: a path on the console's own origin only. Anything that a browser could
 * read as another origin (`//host`, `/\host`, a scheme) falls back to the console's root.
 */
export function safeReturnPath(candidate: string | undefined, fallback = '/console/'): string {
  if (candidate === undefined || !/^\/(?![/\\])/.test(candidate) || candidate.includes('\\')) return fallback;
  if (/[\u0000-\u001f\u007f]/.test(candidate)) return fallback;
  return candidate;
}
