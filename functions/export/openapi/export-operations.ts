/**
 * Area A's part of the OpenAPI document: one entry per public Org Export route (export/export-routes.ts),
 * joined with the other areas' in functions/openapi/operations.ts.
 */
import * as z from 'zod';
import { json, type OperationDoc, type QueryParamDoc } from '../../platform/openapi/openapi-kit';
import * as s from './export-schemas';

const limit: QueryParamDoc = {
  // Any positive integer, however large (it clamps): no safe-integer maximum.
  schema: z.number().min(1).meta({ type: 'integer' }),
  description: 'Page size: default 50, maximum 100 (larger values clamp to 100, with a Warning and X-Svc-Limit-Clamped header)',
};
const cursor: QueryParamDoc = { schema: z.string(), description: 'The `next_cursor` of the previous page' };
const iso = (description: string): QueryParamDoc => ({
  schema: z.string().meta({ format: 'date-time' }),
  description: `ISO 8601 with Z or an offset; ${description}`,
});

const EXPORT_ERRORS = [400, 401, 403, 429, 500];

export const EXPORT_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
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
    query: {
      include: { schema: z.string().regex(/^tool_details(,tool_details)*$/), description: 'Comma-separated; `tool_details` adds tool markers to messages' },
    },
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
};
