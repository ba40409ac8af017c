/**
 * The OpenAPI 3.1 document of the console's backend (every route of the `console` area: the sign-in
 * routes and the console API), built by the same operation builder as the public document from each
 * slice's console fragment. Served by the front door at `GET /console/openapi.json` beside the public
 * reference (docs-site.ts) and fuzzed from it (test/fuzz).
 */
import { ROUTES } from '../routes';
import type { RouteDef } from '../kernel/route-vocabulary';
import type { OperationDoc } from '../kernel/openapi-kit';
import { CONSOLE_OPERATIONS as SIGN_IN_OPERATIONS } from '../console/openapi/console-operations';
import { TENANCY_CONSOLE_OPERATIONS } from '../tenancy/openapi/tenancy-console-operations';
import { TENANCY_CONSOLE_KEY_OPERATIONS } from '../tenancy/openapi/tenancy-console-key-operations';
import { USAGE_CONSOLE_OPERATIONS } from '../conversations/openapi/usage-console-operations';
import { CONVERSATION_CONSOLE_OPERATIONS } from '../conversations/openapi/conversation-console-operations';
import { EXPORT_CONSOLE_OPERATIONS } from '../export/openapi/export-console-operations';
import { ACP_CONSOLE_OPERATIONS } from '../acp/openapi/acp-console-operations';
import { DOCUMENT_OWNER, operation } from './document';

/** Every console route by id. */
export const CONSOLE_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  ...SIGN_IN_OPERATIONS,
  ...TENANCY_CONSOLE_OPERATIONS,
  ...TENANCY_CONSOLE_KEY_OPERATIONS,
  ...USAGE_CONSOLE_OPERATIONS,
  ...CONVERSATION_CONSOLE_OPERATIONS,
  ...EXPORT_CONSOLE_OPERATIONS,
  ...ACP_CONSOLE_OPERATIONS,
};

/** The routes the console document covers: the `console` area's. */
export const CONSOLE_DOCUMENT_ROUTES: readonly RouteDef[] = ROUTES.filter((r) => r.area === 'console');

export function buildConsoleOpenApiDocument(serverUrl = '/'): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of CONSOLE_DOCUMENT_ROUTES) {
    const doc = CONSOLE_OPERATIONS[route.id];
    if (!doc) throw new Error(`console route ${route.id} has no OpenAPI entry in functions/<area>/openapi/<area>-console-operations.ts`);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, doc);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Application Platform console API',
      version: '1.0.0',
      ...DOCUMENT_OWNER,
      description:
        'The console’s backend-for-frontend on the console’s own origin. Sign in through `GET /console/auth/login` (OpenID Connect, authorization code with PKCE); the browser then holds one `HttpOnly` session cookie and never a token. Every state-changing call must also send the header `X-Console-Request: 1` (a cross-site form cannot) and no other `Origin`. On a route of an org, the caller must be its member and the role must allow the route’s permission (`x-permission`); someone who is not a member gets 404, as for an org that does not exist. Errors are `{ error: { code, message } }`; 300 requests a minute per client address.',
    },
    servers: [{ url: serverUrl }],
    tags: [
      { name: 'Console sign-in', description: 'OpenID Connect sign-in and the session cookie' },
      { name: 'Org', description: 'The org, its plan and credits, members, invitations and audit log' },
      { name: 'Keys', description: 'Org keys, chat keys and ACP keys: shown once at creation, then by prefix' },
      { name: 'Apps', description: 'Apps and their settings' },
      { name: 'Conversations', description: 'Sessions, transcripts, deleting sessions and consumers' },
      { name: 'Usage', description: 'Usage and cost by day, app and model' },
      { name: 'Catalog and orders', description: 'The ACP catalog, orders after the sale and the order-event receiver' },
      { name: 'Exports', description: 'Bulk snapshot exports of the org' },
    ],
    paths,
    components: {
      securitySchemes: {
        consoleSession: {
          type: 'apiKey',
          in: 'cookie',
          name: '__Host-console-session',
          description: 'The session cookie `GET /console/auth/callback` sets after sign-in (HttpOnly, Secure, SameSite=Strict).',
        },
        consoleRequest: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Console-Request',
          description: 'Required on every state-changing call (any value): a cross-site form cannot send it.',
        },
      },
    },
  };
}
