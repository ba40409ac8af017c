/**
 * The OpenAPI 3.1 document of the public API, generated from the route table (functions/routes.ts:
 * methods, paths, auth kinds, rate-limit classes, body modes) and each area's OpenAPI fragment in
 * functions/<area>/openapi/ (zod schemas of parameters, bodies, responses). Served at
 * `GET /api/v1/openapi.json` and written by `npm run openapi`; the handler tests check real responses
 * against it. Every public route must have an entry in its area's fragment, joined in OPERATIONS
 * (functions/openapi/operations.ts; a test fails otherwise); admin routes (IAM) are an operator's API
 * and have a document of their own (admin-document.ts).
 */
import * as z from 'zod';
import { ROUTES } from '../routes';
import type { AuthKind, RouteDef } from '../kernel/route-vocabulary';
import { acpError, rateLimitedAcp } from '../acp/openapi/acp-schemas';
import { chatError } from '../chat/openapi/chat-schemas';
import { errorObject, type JsonSchema, type OperationDoc, type ResponseHeaderDoc, type ZodSchema } from '../kernel/openapi-kit';
import type { BodyRule, ParamRules, RequestDeclaration } from '../kernel/http/request-declaration';
import { OPERATIONS } from './operations';

const SECURITY: Readonly<Record<AuthKind, string | undefined>> = {
  orgKey: 'orgKey',
  chatKey: 'chatKey',
  acpKey: 'acpKey',
  signingSecret: 'signingSecret',
  public: undefined,
  iam: 'adminToken',
  consoleSession: 'consoleSession',
};

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request: a parameter, header or body the operation refuses, or a request the HTTP layer cannot parse',
  401: 'Missing, invalid, revoked or expired credentials',
  402: 'Insufficient credits, or the monthly usage cap is reached',
  403: 'Missing scope, or another app',
  404: 'Not found',
  405: 'Not allowed in the resource’s state',
  409: 'Busy or in flight (a chat session running another turn, an ACP request with the same Idempotency-Key), or conflicting; Retry-After says when to retry',
  413: 'Body too large (over the operation’s limit, or over 10 MB for any operation)',
  414: 'Request-target (path and query) over 8192 bytes',
  422: 'Unprocessable (idempotency conflict, file content, image limits)',
  429: 'Rate limit exceeded (Retry-After seconds)',
  431: 'Request headers too large',
  500: 'Internal server error',
  503: 'A dependency is down for a while (Retry-After)',
};

function toSchema(schema: ZodSchema | JsonSchema): Record<string, unknown> {
  if (!('_zod' in schema)) return structuredClone(schema) as Record<string, unknown>;
  const out = z.toJSONSchema(schema as ZodSchema, { target: 'draft-2020-12', io: 'input', reused: 'inline', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete out.$schema;
  return out;
}

function errorSchema(route: RouteDef, status: number): ZodSchema {
  switch (route.area) {
    case 'chat':
      return chatError;
    case 'acp':
      if (status === 401 || status === 403) return errorObject;
      if (status === 429) return rateLimitedAcp;
      return acpError;
    default:
      return errorObject;
  }
}

/**
 * What any operation can answer before or around its own logic: a request the HTTP layer cannot parse
 * (400), a body over the transport's 10 MB (413), a request-target over 8192 bytes (414), headers over
 * the limit (431), and an unexpected failure (500). The front door answers them in the area's shape.
 */
const TRANSPORT_ERRORS: readonly number[] = [400, 413, 414, 431, 500];

const retryAfter = { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } } };
const correlation = { 'X-Correlation-ID': { description: 'The request’s correlation id (yours if you sent one)', schema: { type: 'string' } } };

/** A query or header parameter of the declaration (optional unless it says so); its description comes out of the schema onto the parameter. */
function parameters(where: 'query' | 'header', rules: ParamRules = {}): Record<string, unknown>[] {
  return Object.entries(rules).map(([name, rule]) => {
    const { description, ...schema } = toSchema(rule.schema);
    return { name, in: where, required: rule.required ?? false, description, schema };
  });
}

/** A request body's media types: the declaration's own, then the alternatives it also takes. */
function requestContent(body: BodyRule<unknown>): Record<string, unknown> {
  const all = { [body.contentType]: body.schema, ...(body.alternatives ?? {}) };
  return Object.fromEntries(Object.entries(all).map(([type, schema]) => [type, { schema: toSchema(schema) }]));
}

/** An answer's headers: the correlation id, then the operation's own. */
function responseHeaders(own: Readonly<Record<string, ResponseHeaderDoc>> = {}): Record<string, unknown> {
  return { ...correlation, ...Object.fromEntries(Object.entries(own).map(([name, h]) => [name, { description: h.description, schema: toSchema(h.schema) }])) };
}

/**
 * A path parameter: the shape its route declares (RouteDef.pathParams, which the kit checks), else the
 * operation's request declaration's rule, or any text where the handler judges it.
 */
function pathParameter(route: RouteDef, request: RequestDeclaration, name: string): Record<string, unknown> {
  const declared = route.pathParams?.[name];
  if (declared) {
    const { description, ...schema } = toSchema(declared.schema);
    return { name, in: 'path', required: true, ...(description ? { description } : {}), schema };
  }
  const rule = request.path?.[name];
  return { name, in: 'path', required: true, schema: rule ? toSchema({ type: 'string', ...rule.schema }) : { type: 'string' } };
}

/** The document's operation for a route and its entry in an area's fragment (the public and the admin document alike). */
export function operation(route: RouteDef, doc: OperationDoc): Record<string, unknown> {
  const request = doc.request ?? {};
  const pathParams = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => pathParameter(route, request, m[1]!));
  const body = request.body;
  const responses: Record<string, unknown> = {
    [String(doc.ok.status)]: {
      description: doc.ok.description,
      headers: responseHeaders(doc.ok.headers),
      ...(doc.ok.content ? { content: Object.fromEntries(Object.entries(doc.ok.content).map(([type, schema]) => [type, { schema: toSchema(schema) }])) } : {}),
    },
  };
  for (const [status, answer] of Object.entries(doc.bodyless ?? {}))
    responses[status] = { description: answer.description, headers: responseHeaders(answer.headers) };
  for (const status of [...new Set([...doc.errors, ...TRANSPORT_ERRORS])].sort((a, b) => a - b)) {
    responses[String(status)] = {
      description: doc.errorDescriptions?.[status] ?? STATUS_TEXT[status] ?? 'Error',
      headers: status === 429 || status === 503 || status === 409 ? { ...correlation, ...retryAfter } : correlation,
      content: { 'application/json': { schema: toSchema(errorSchema(route, status)) } },
    };
  }
  const scheme = SECURITY[route.auth];
  return {
    operationId: route.id,
    tags: [doc.tag],
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    'x-rate-limit': route.rateLimit,
    ...(route.permission ? { 'x-permission': route.permission } : {}),
    security: securityOf(route, scheme),
    parameters: [...pathParams, ...parameters('query', request.query), ...parameters('header', request.headers)],
    ...(body ? { requestBody: { required: body.required ?? false, content: requestContent(body) } } : {}),
    responses,
  };
}

/** A state-changing console call needs the custom header as well as the session cookie (a form cannot send it). */
function securityOf(route: RouteDef, scheme: string | undefined): Record<string, string[]>[] {
  if (!scheme) return [];
  if (route.auth === 'consoleSession' && route.method !== 'GET') return [{ [scheme]: [], consoleRequest: [] }];
  return [{ [scheme]: [] }];
}

/** Who answers for the API, and its terms: the code is not licensed to anyone (an SPDX `LicenseRef-` for a proprietary license). */
export const DOCUMENT_OWNER = {
  contact: { name: 'Application Platform API operators' },
  license: { name: 'Proprietary: not licensed for use outside the platform’s operator', identifier: 'LicenseRef-Proprietary' },
};

/** The public routes the document covers: every route but the admin API and the console's own (console-document.ts). */
export const PUBLIC_ROUTES: readonly RouteDef[] = ROUTES.filter((r) => r.auth !== 'iam' && r.area !== 'console');

export function buildOpenApiDocument(serverUrl = '/'): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of PUBLIC_ROUTES) {
    const doc = OPERATIONS[route.id];
    if (!doc) throw new Error(`route ${route.id} has no OpenAPI entry in functions/<area>/openapi/<area>-operations.ts`);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, doc);
  }
  const bearer = (description: string) => ({ type: 'http', scheme: 'bearer', description });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Application Platform API',
      version: '1.0.0',
      ...DOCUMENT_OWNER,
      description:
        'Org Export (A), Chat Completions (B), ACP checkout (C) and release notes with webhooks (D). Rate limits: 120 requests a minute per key on A and B, 60 per key on checkout and 200 per client IP on ACP discovery; a 429 carries Retry-After.',
    },
    servers: [{ url: serverUrl }],
    tags: [
      { name: 'Org Export', description: 'Area A: read-only export of apps, sessions, messages, usage and deletions (`svc_org_` keys with scopes)' },
      { name: 'Chat', description: 'Area B: chat turns for one app (`svc_chat_` keys)' },
      { name: 'ACP checkout', description: 'Area C: Agentic Commerce Protocol 2026-04-17 (`acp_` keys; discovery is public)' },
      { name: 'Release notes', description: 'Area D: RSS feed and signed webhook subscriptions' },
    ],
    paths,
    components: {
      securitySchemes: {
        orgKey: bearer('An org key `svc_org_…` with the scope the route needs (apps:read, transcripts:read, usage:read, tombstones:read)'),
        chatKey: bearer('A chat key `svc_chat_…` of one app'),
        acpKey: bearer('An ACP key `acp_` + 32 characters, bound to one app'),
        signingSecret: bearer('The subscription signing secret `whsec_…` shown at creation'),
      },
    },
  };
}
