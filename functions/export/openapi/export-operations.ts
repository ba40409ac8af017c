/**
 * Area A's part of the OpenAPI document: one entry per public Org Export route (export/export-routes.ts),
 * joined with the other areas' in functions/openapi/operations.ts.
 */
import { json, type OperationDoc } from '../../kernel/openapi-kit';
import { EXPORT_JOB_REQUESTS } from './export-job-requests';
import { EXPORT_REQUESTS } from './export-requests';
import * as s from './export-schemas';

const EXPORT_ERRORS = [400, 401, 403, 429, 500];

export const EXPORT_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  orgAppsList: {
    tag: 'Org Export',
    summary: "List the org's apps",
    request: EXPORT_REQUESTS.orgAppsList,
    description: 'Non-deleted apps, newest first.',
    ok: { status: 200, description: 'The apps', content: json(s.appsList) },
    errors: EXPORT_ERRORS,
  },
  orgSessionsList: {
    tag: 'Org Export',
    summary: 'List sessions across the org',
    description:
      'Order: `last_activity_at` descending, then `id` descending. Checkpoint on the largest `last_activity_at` seen and pass it back as `updated_after`. With `include=messages` each row carries its transcript, and a page may end before `limit` rows (with `has_more` true and a cursor that continues right there) to stay within 5,000,000 bytes.',
    request: EXPORT_REQUESTS.orgSessionsList,
    ok: { status: 200, description: 'A page of sessions', content: json(s.listOf(s.exportSessionRow, 'SessionList')) },
    errors: EXPORT_ERRORS,
  },
  orgSessionMessages: {
    tag: 'Org Export',
    summary: 'Messages of one session',
    description:
      'One session of the org’s apps with its messages; for a Zero Data Retention app the messages are empty and `zdr` is true. A session of another org, or none, is a 404.',
    request: EXPORT_REQUESTS.orgSessionMessages,
    ok: {
      status: 200,
      description: 'The session subset and its messages (empty with zdr: true for a Zero Data Retention app)',
      content: json(s.sessionMessages),
    },
    errors: [...EXPORT_ERRORS, 404],
  },
  orgExportCreate: {
    tag: 'Org Export',
    summary: 'Start a bulk snapshot export',
    description:
      'The org’s lists as of now minus the visibility delay, written as gzipped NDJSON files off the request path: poll GET /exports/{exportId}. For a warehouse’s first load; later passes continue incrementally from its `updated_after`.',
    request: EXPORT_JOB_REQUESTS.orgExportCreate,
    ok: { status: 202, description: 'The job, running', content: json(s.exportJob) },
    errors: EXPORT_ERRORS,
  },
  orgExportGet: {
    tag: 'Org Export',
    summary: 'A bulk snapshot export',
    request: EXPORT_JOB_REQUESTS.orgExportGet,
    description: 'Its state; once completed, its files with download links valid for an hour (a new GET gives new links).',
    ok: { status: 200, description: 'The job', content: json(s.exportJob) },
    errors: [...EXPORT_ERRORS, 404],
  },
  orgUsageList: {
    tag: 'Org Export',
    summary: 'Per-call token usage and cost',
    description: 'Token usage and cost per model call across the org’s apps; `since` bounds it below. Paginated with `limit` and `cursor`.',
    request: EXPORT_REQUESTS.orgUsageList,
    ok: { status: 200, description: 'A page of usage rows, created_at descending', content: json(s.listOf(s.exportUsageRow, 'UsageList')) },
    errors: EXPORT_ERRORS,
  },
  orgTombstonesList: {
    tag: 'Org Export',
    summary: 'The deletion feed',
    description:
      'What was deleted (sessions, consumers, apps) and why, so a warehouse can delete its copies; `cause` filters. Paginated with `limit` and `cursor`.',
    request: EXPORT_REQUESTS.orgTombstonesList,
    ok: { status: 200, description: 'A page of tombstones, deleted_at descending', content: json(s.listOf(s.exportTombstone, 'TombstoneList')) },
    errors: EXPORT_ERRORS,
  },
};
