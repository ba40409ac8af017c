/**
 * The OpenAPI 3.1 document of the public API, generated from the route table (functions/routes.ts:
 * methods, paths, auth kinds, rate-limit classes, body modes) and the zod schemas of
 * functions/openapi/schemas.ts (parameters, bodies, responses). Served at `GET /api/v1/openapi.json`
 * and written by `npm run openapi`; the handler tests check real responses against it.
 * Every public route must have an entry in OPERATIONS (a test fails otherwise); admin routes (IAM) are
 * an operator's API and are not part of it.
 */
import * as z from 'zod';
import { ROUTES, type AuthKind, type RouteDef } from '../routes';
import * as s from './schemas';

type ZodSchema = z.ZodType;

interface QueryParamDoc {
  readonly schema: ZodSchema;
  readonly description: string;
}

interface OperationDoc {
  readonly summary: string;
  readonly description?: string;
  readonly tag: string;
  readonly query?: Readonly<Record<string, QueryParamDoc>>;
  readonly body?: { readonly contentType: 'application/json' | 'multipart/form-data'; readonly schema: ZodSchema; readonly required?: boolean };
  readonly ok: { readonly status: number; readonly description: string; readonly content?: Readonly<Record<string, ZodSchema>> };
  /** Error statuses this operation documents (bodies in the area's error shape). */
  readonly errors: readonly number[];
  /** Request headers beyond Authorization. */
  readonly headers?: Readonly<Record<string, QueryParamDoc>>;
}

const limit: QueryParamDoc = { schema: z.int().min(1), description: 'Page size: default 50, maximum 100 (larger values clamp to 100, with a Warning and X-Svc-Limit-Clamped header)' };
const cursor: QueryParamDoc = { schema: z.string(), description: 'The `next_cursor` of the previous page' };
const iso = (description: string): QueryParamDoc => ({ schema: z.string().meta({ format: 'date-time' }), description: `ISO 8601 with Z or an offset; ${description}` });

const EXPORT_ERRORS = [400, 401, 403, 429, 500];
const ACP_PUBLIC_ERRORS = [404, 429, 500];
const ACP_CHECKOUT_ERRORS = [400, 401, 403, 404, 405, 409, 422, 429, 500, 503];
const acpHeaders: Record<string, QueryParamDoc> = {
  'API-Version': { schema: z.string(), description: 'ACP version, default 2026-04-17; another is a 400 with supported_versions' },
  'Request-Id': { schema: z.string(), description: 'Echoed in the response' },
};
const acpPostHeaders: Record<string, QueryParamDoc> = {
  ...acpHeaders,
  'Idempotency-Key': { schema: z.string().min(1).max(255), description: 'A repeat returns the first answer (Idempotent-Replayed: true); another body with the same key is 422; one in flight is 409 with Retry-After' },
};
const json = (schema: ZodSchema) => ({ 'application/json': schema });

/** Every public route by id. */
export const OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  orgAppsList: { tag: 'Org Export', summary: "List the org's apps", description: 'Non-deleted apps, newest first.', ok: { status: 200, description: 'The apps', content: json(s.appsList) }, errors: EXPORT_ERRORS },
  orgSessionsList: {
    tag: 'Org Export',
    summary: 'List sessions across the org',
    description: 'Order: `last_activity_at` descending, then `id` descending. Checkpoint on the largest `last_activity_at` seen and pass it back as `updated_after`.',
    query: {
      limit,
      cursor,
      app_id: { schema: z.string().meta({ format: 'uuid' }), description: 'Only this app (an unknown UUID gives zero rows)' },
      updated_after: iso('inclusive filter on last_activity_at: the incremental-sync checkpoint'),
      started_after: iso('filter on started_at (bounded backfill only)'),
      started_before: iso('filter on started_at (bounded backfill only)'),
    },
    ok: { status: 200, description: 'A page of sessions', content: json(s.listOf(s.exportSession, 'SessionList')) },
    errors: EXPORT_ERRORS,
  },
  orgSessionMessages: {
    tag: 'Org Export',
    summary: 'Messages of one session',
    query: { include: { schema: z.literal('tool_details'), description: '`tool_details` adds tool markers to messages' } },
    ok: { status: 200, description: 'The session subset and its messages (empty with zdr: true for a Zero Data Retention app)', content: json(s.sessionMessages) },
    errors: [...EXPORT_ERRORS, 404],
  },
  orgUsageList: {
    tag: 'Org Export',
    summary: 'Per-call token usage and cost',
    query: { limit, cursor, since: iso('lower bound on created_at') },
    ok: { status: 200, description: 'A page of usage rows, created_at descending', content: json(s.listOf(s.exportUsageRow, 'UsageList')) },
    errors: EXPORT_ERRORS,
  },
  orgTombstonesList: {
    tag: 'Org Export',
    summary: 'The deletion feed',
    query: { limit, cursor, cause: { schema: z.string(), description: 'Exact-match filter on cause' } },
    ok: { status: 200, description: 'A page of tombstones, deleted_at descending', content: json(s.listOf(s.exportTombstone, 'TombstoneList')) },
    errors: EXPORT_ERRORS,
  },
  chatCompletionsCreate: {
    tag: 'Chat',
    summary: 'Run a chat turn',
    description: 'The OpenAI chat-completion shape plus `chatSessionId`. With `stream: true` the answer is Server-Sent Events.',
    headers: {
      'X-Chat-Session-ID': { schema: z.string().meta({ format: 'uuid' }), description: 'Continues this session (as chatSessionId)' },
      'Idempotency-Key': { schema: z.string().min(1).max(255), description: 'A retry with the same key gets the first answer (Idempotent-Replayed: true) and runs nothing again; another request with the same key is 422; one still running is 409 with Retry-After' },
    },
    body: { contentType: 'application/json', schema: s.chatRequest, required: true },
    ok: { status: 200, description: 'The answer', content: { 'application/json': s.chatCompletion, 'text/event-stream': s.chatStream } },
    errors: [400, 401, 402, 403, 404, 409, 413, 422, 429, 500, 503],
  },
  chatFilesCreate: {
    tag: 'Chat',
    summary: 'Upload a file for later chat turns',
    description: 'multipart/form-data with one `file` part, up to 20 MiB.',
    headers: {
      'X-Chat-Session-ID': { schema: z.string().meta({ format: 'uuid' }), description: "Binds the file to that session's consumer" },
      'Idempotency-Key': { schema: z.string().min(1).max(255), description: 'A retry with the same key and file gets the first answer (Idempotent-Replayed: true) and stores nothing again; another file with the same key is 422' },
    },
    body: { contentType: 'multipart/form-data', schema: s.uploadRequest, required: true },
    ok: { status: 201, description: 'The stored file', content: json(s.uploadedFile) },
    errors: [400, 401, 403, 409, 413, 422, 429, 500, 503],
  },
  acpProductsList: { tag: 'ACP checkout', summary: "The app's catalog (ACP feed ProductsResponse)", ok: { status: 200, description: 'Active products', content: json(s.acpProducts) }, errors: ACP_PUBLIC_ERRORS },
  acpAgentCard: { tag: 'ACP checkout', summary: 'A2A agent card of the checkout', ok: { status: 200, description: 'The agent card', content: json(s.agentCard) }, errors: ACP_PUBLIC_ERRORS },
  acpAgentCardV3: { tag: 'ACP checkout', summary: 'A2A agent card (agent-card.json)', ok: { status: 200, description: 'The agent card', content: json(s.agentCard) }, errors: ACP_PUBLIC_ERRORS },
  acpDiscovery: { tag: 'ACP checkout', summary: 'ACP discovery document', ok: { status: 200, description: 'The DiscoveryResponse', content: json(s.acpDiscovery) }, errors: ACP_PUBLIC_ERRORS },
  acpCheckoutCreate: {
    tag: 'ACP checkout',
    summary: 'Create a checkout session',
    headers: acpPostHeaders,
    body: { contentType: 'application/json', schema: s.checkoutCreate, required: true },
    ok: { status: 201, description: 'The session, with server-computed totals', content: json(s.checkoutSession) },
    errors: ACP_CHECKOUT_ERRORS,
  },
  acpCheckoutGet: { tag: 'ACP checkout', summary: 'Read a checkout session', headers: acpHeaders, ok: { status: 200, description: 'The session', content: json(s.checkoutSession) }, errors: ACP_CHECKOUT_ERRORS },
  acpCheckoutUpdate: {
    tag: 'ACP checkout',
    summary: 'Update a checkout session',
    headers: acpPostHeaders,
    body: { contentType: 'application/json', schema: s.checkoutUpdate },
    ok: { status: 200, description: 'The session', content: json(s.checkoutSession) },
    errors: ACP_CHECKOUT_ERRORS,
  },
  acpCheckoutComplete: {
    tag: 'ACP checkout',
    summary: 'Complete (pay for) a checkout session',
    description: 'Holds the stock, charges, and answers the session `completed` with its order; `complete_in_progress` when the payment outcome is not known yet.',
    headers: acpPostHeaders,
    body: { contentType: 'application/json', schema: s.checkoutComplete, required: true },
    ok: { status: 200, description: 'The session', content: json(s.checkoutSession) },
    errors: ACP_CHECKOUT_ERRORS,
  },
  acpCheckoutCancel: {
    tag: 'ACP checkout',
    summary: 'Cancel a checkout session',
    headers: acpPostHeaders,
    body: { contentType: 'application/json', schema: s.checkoutCancel },
    ok: { status: 200, description: 'The canceled session', content: json(s.checkoutSession) },
    errors: ACP_CHECKOUT_ERRORS,
  },
  releaseNotesFeed: {
    tag: 'Release notes',
    summary: 'Release-notes RSS feed',
    query: {
      area: { schema: z.string(), description: 'Only periods with an item in this area' },
      limit: { schema: z.int().min(1), description: 'Periods in the feed' },
    },
    ok: { status: 200, description: 'RSS 2.0', content: { 'application/rss+xml': s.rssFeed } },
    errors: [400, 429, 500],
  },
  releaseNotesSubscriptionCreate: {
    tag: 'Release notes',
    summary: 'Subscribe a webhook',
    body: { contentType: 'application/json', schema: s.subscriptionCreate, required: true },
    ok: { status: 201, description: 'The subscription and its signing secret (shown once)', content: json(s.subscriptionCreated) },
    errors: [400, 429, 500, 503],
  },
  releaseNotesSubscriptionsList: { tag: 'Release notes', summary: 'The subscriptions of a signing secret', ok: { status: 200, description: 'Subscriptions', content: json(s.subscriptionsList) }, errors: [401, 429, 500] },
  releaseNotesSubscriptionDelete: { tag: 'Release notes', summary: 'Delete a subscription', ok: { status: 204, description: 'Deleted' }, errors: [401, 404, 429, 500] },
  releaseNotesDeliveriesList: { tag: 'Release notes', summary: 'Delivery attempts of a subscription', ok: { status: 200, description: 'Attempts, newest first', content: json(s.deliveriesList) }, errors: [401, 404, 429, 500] },
};

const SECURITY: Readonly<Record<AuthKind, string | undefined>> = { orgKey: 'orgKey', chatKey: 'chatKey', acpKey: 'acpKey', signingSecret: 'signingSecret', public: undefined, iam: undefined };

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request',
  401: 'Missing, invalid, revoked or expired credentials',
  402: 'Insufficient credits, or the monthly usage cap is reached',
  403: 'Missing scope, or another app',
  404: 'Not found',
  405: 'Not allowed in the resource’s state',
  409: 'Busy or in flight (a chat session running another turn, an ACP request with the same Idempotency-Key), or conflicting; Retry-After says when to retry',
  413: 'Body too large',
  422: 'Unprocessable (idempotency conflict, file content, image limits)',
  429: 'Rate limit exceeded (Retry-After seconds)',
  500: 'Internal server error',
  503: 'A dependency is down for a while (Retry-After)',
};

function toSchema(schema: ZodSchema): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', reused: 'inline', unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

function errorSchema(route: RouteDef, status: number): ZodSchema {
  switch (route.area) {
    case 'chat':
      return s.chatError;
    case 'acp':
      if (status === 401 || status === 403) return s.errorObject;
      if (status === 429) return s.rateLimitedAcp;
      return s.acpError;
    default:
      return s.errorObject;
  }
}

const retryAfter = { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } } };
const correlation = { 'X-Correlation-ID': { description: 'The request’s correlation id (yours if you sent one)', schema: { type: 'string' } } };

function operation(route: RouteDef, doc: OperationDoc): Record<string, unknown> {
  const pathParams = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => ({ name: m[1]!, in: 'path', required: true, schema: { type: 'string' } }));
  const queryParams = Object.entries(doc.query ?? {}).map(([name, q]) => ({ name, in: 'query', required: false, description: q.description, schema: toSchema(q.schema) }));
  const headerParams = Object.entries(doc.headers ?? {}).map(([name, q]) => ({ name, in: 'header', required: false, description: q.description, schema: toSchema(q.schema) }));
  const responses: Record<string, unknown> = {
    [String(doc.ok.status)]: {
      description: doc.ok.description,
      headers: correlation,
      ...(doc.ok.content ? { content: Object.fromEntries(Object.entries(doc.ok.content).map(([type, schema]) => [type, { schema: toSchema(schema) }])) } : {}),
    },
  };
  for (const status of doc.errors) {
    responses[String(status)] = {
      description: STATUS_TEXT[status] ?? 'Error',
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
    security: scheme ? [{ [scheme]: [] }] : [],
    parameters: [...pathParams, ...queryParams, ...headerParams],
    ...(doc.body
      ? { requestBody: { required: doc.body.required ?? false, content: { [doc.body.contentType]: { schema: toSchema(doc.body.schema) } } } }
      : {}),
    responses,
  };
}

/** The public routes the document covers: every route but the admin API. */
export const PUBLIC_ROUTES: readonly RouteDef[] = ROUTES.filter((r) => r.auth !== 'iam');

export function buildOpenApiDocument(serverUrl = '/'): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of PUBLIC_ROUTES) {
    const doc = OPERATIONS[route.id];
    if (!doc) throw new Error(`route ${route.id} has no OpenAPI entry in functions/openapi/document.ts`);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, doc);
  }
  const bearer = (description: string) => ({ type: 'http', scheme: 'bearer', description });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Application Platform API',
      version: '1.0.0',
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
