/**
 * What the OpenAPI document says of each public route beyond the route table: summary, tag, query and
 * header parameters, body, success response and documented error statuses (functions/openapi/document.ts
 * turns each entry into an operation).
 */
import * as z from 'zod';
import * as s from './schemas';

export type ZodSchema = z.ZodType;

interface QueryParamDoc {
  readonly schema: ZodSchema;
  readonly description: string;
}

export interface OperationDoc {
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

const limit: QueryParamDoc = {
  schema: z.int().min(1),
  description: 'Page size: default 50, maximum 100 (larger values clamp to 100, with a Warning and X-Svc-Limit-Clamped header)',
};
const cursor: QueryParamDoc = { schema: z.string(), description: 'The `next_cursor` of the previous page' };
const iso = (description: string): QueryParamDoc => ({
  schema: z.string().meta({ format: 'date-time' }),
  description: `ISO 8601 with Z or an offset; ${description}`,
});

const EXPORT_ERRORS = [400, 401, 403, 429, 500];
const ACP_PUBLIC_ERRORS = [404, 429, 500];
const ACP_CHECKOUT_ERRORS = [400, 401, 403, 404, 405, 409, 413, 422, 429, 500, 503];
const acpHeaders: Record<string, QueryParamDoc> = {
  'API-Version': { schema: z.string(), description: 'ACP version, default 2026-04-17; another is a 400 with supported_versions' },
  'Request-Id': { schema: z.string(), description: 'Echoed in the response' },
};
const acpPostHeaders: Record<string, QueryParamDoc> = {
  ...acpHeaders,
  'Idempotency-Key': {
    schema: z.string().min(1).max(255),
    description: 'A repeat returns the first answer (Idempotent-Replayed: true); another body with the same key is 422; one in flight is 409 with Retry-After',
  },
};
const json = (schema: ZodSchema) => ({ 'application/json': schema });

/** Every public route by id. */
export const OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  orgAppsList: {
    tag: 'Org Export',
    summary: "List the org's apps",
    description: 'Non-deleted apps, newest first.',
    ok: { status: 200, description: 'The apps', content: json(s.appsList) },
    errors: EXPORT_ERRORS,
  },
  orgSessionsList: {
    tag: 'Org Export',
    summary: 'List sessions across the org',
    description:
      'Order: `last_activity_at` descending, then `id` descending. Checkpoint on the largest `last_activity_at` seen and pass it back as `updated_after`.',
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
    ok: {
      status: 200,
      description: 'The session subset and its messages (empty with zdr: true for a Zero Data Retention app)',
      content: json(s.sessionMessages),
    },
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
      'Idempotency-Key': {
        schema: z.string().min(1).max(255),
        description:
          'A retry with the same key gets the first answer (Idempotent-Replayed: true) and runs nothing again; another request with the same key is 422; one still running is 409 with Retry-After',
      },
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
      'Idempotency-Key': {
        schema: z.string().min(1).max(255),
        description:
          'A retry with the same key and file gets the first answer (Idempotent-Replayed: true) and stores nothing again; another file with the same key is 422',
      },
    },
    body: { contentType: 'multipart/form-data', schema: s.uploadRequest, required: true },
    ok: { status: 201, description: 'The stored file', content: json(s.uploadedFile) },
    errors: [400, 401, 403, 404, 409, 413, 422, 429, 500, 503],
  },
  acpProductsList: {
    tag: 'ACP checkout',
    summary: "The app's catalog (ACP feed ProductsResponse)",
    ok: { status: 200, description: 'Active products', content: json(s.acpProducts) },
    errors: ACP_PUBLIC_ERRORS,
  },
  acpAgentCard: {
    tag: 'ACP checkout',
    summary: 'A2A agent card of the checkout',
    ok: { status: 200, description: 'The agent card', content: json(s.agentCard) },
    errors: ACP_PUBLIC_ERRORS,
  },
  acpAgentCardV3: {
    tag: 'ACP checkout',
    summary: 'A2A agent card (agent-card.json)',
    ok: { status: 200, description: 'The agent card', content: json(s.agentCard) },
    errors: ACP_PUBLIC_ERRORS,
  },
  acpDiscovery: {
    tag: 'ACP checkout',
    summary: 'ACP discovery document',
    ok: { status: 200, description: 'The DiscoveryResponse', content: json(s.acpDiscovery) },
    errors: ACP_PUBLIC_ERRORS,
  },
  acpCheckoutCreate: {
    tag: 'ACP checkout',
    summary: 'Create a checkout session',
    headers: acpPostHeaders,
    body: { contentType: 'application/json', schema: s.checkoutCreate, required: true },
    ok: { status: 201, description: 'The session, with server-computed totals', content: json(s.checkoutSession) },
    errors: ACP_CHECKOUT_ERRORS,
  },
  acpCheckoutGet: {
    tag: 'ACP checkout',
    summary: 'Read a checkout session',
    headers: acpHeaders,
    ok: { status: 200, description: 'The session', content: json(s.checkoutSession) },
    errors: ACP_CHECKOUT_ERRORS,
  },
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
    description:
      'Holds the stock, charges, and answers the session `completed` with its order; `complete_in_progress` when the payment outcome is not known yet.',
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
    errors: [400, 413, 429, 500, 503],
  },
  releaseNotesSubscriptionsList: {
    tag: 'Release notes',
    summary: 'The subscriptions of a signing secret',
    ok: { status: 200, description: 'Subscriptions', content: json(s.subscriptionsList) },
    errors: [401, 429, 500],
  },
  releaseNotesSubscriptionDelete: {
    tag: 'Release notes',
    summary: 'Delete a subscription',
    ok: { status: 204, description: 'Deleted' },
    errors: [401, 404, 429, 500],
  },
  releaseNotesDeliveriesList: {
    tag: 'Release notes',
    summary: 'Delivery attempts of a subscription',
    ok: { status: 200, description: 'Attempts, newest first', content: json(s.deliveriesList) },
    errors: [401, 404, 429, 500],
  },
};
