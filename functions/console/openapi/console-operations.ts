/**
 * The console's sign-in routes in the OpenAPI document (console/console-routes.ts), joined with the
 * areas' fragments in functions/openapi/operations.ts.
 */
import * as z from 'zod';
import { json, type OperationDoc } from '../../kernel/openapi-kit';
import { PERMISSION_NAMES, ROLES } from '../../tenancy/domain/roles';
import { CONSOLE_REQUESTS } from './console-requests';

const TAG = 'Console sign-in';
const location = { Location: { description: 'Where the browser goes next', schema: { type: 'string' } } };
const setCookie = { 'Set-Cookie': { description: 'The console’s `__Host-` cookies (HttpOnly, Secure, Path=/)', schema: { type: 'string' } } };

const sessionView = z.object({
  person: z.object({ email: z.nullable(z.string()) }),
  orgs: z.array(
    z.object({ orgId: z.string(), name: z.string(), role: z.enum(ROLES), permissions: z.array(z.enum(PERMISSION_NAMES as [string, ...string[]])) }),
  ),
});

export const CONSOLE_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  consoleLogin: {
    tag: TAG,
    summary: 'Start signing in',
    description: 'Remembers a login (state, nonce, PKCE verifier, the return path), sets the short-lived login cookie and redirects to the issuer.',
    request: CONSOLE_REQUESTS.consoleLogin,
    ok: { status: 302, description: 'To the issuer’s authorization endpoint', headers: { ...location, ...setCookie } },
    errors: [429, 500, 503],
  },
  consoleCallback: {
    tag: TAG,
    summary: 'The issuer’s redirect back',
    description:
      'Takes the login (once; it must be this browser’s), exchanges the code, verifies the tokens, signs the person in, sets the session cookie and redirects to the return path.',
    request: CONSOLE_REQUESTS.consoleCallback,
    ok: { status: 302, description: 'Signed in: to the return path', headers: { ...location, ...setCookie } },
    errors: [400, 401, 403, 429, 500, 503],
  },
  consoleSession: {
    tag: TAG,
    summary: 'Who is signed in',
    description: 'The signed-in person and their orgs, each with their role and its permissions. Needs the session cookie.',
    ok: { status: 200, description: 'The session', content: json(sessionView) },
    errors: [401, 429, 500, 503],
  },
  consoleLogout: {
    tag: TAG,
    summary: 'Sign out',
    description:
      'Ends the session and clears its cookie; `logoutUrl` ends the issuer’s own session too (null when it offers none). Needs the `X-Console-Request` header.',
    request: CONSOLE_REQUESTS.consoleLogout,
    ok: { status: 200, description: 'Signed out', content: json(z.object({ logoutUrl: z.nullable(z.string()) })), headers: setCookie },
    errors: [403, 429, 500, 503],
  },
};
