/**
 * Area A's requests, one declaration per operation (keyed by route id): the handlers read their input
 * with it and the OpenAPI document shows it, so what a route takes and what the document says it takes
 * are one declaration. Each query parameter is the text the document shows, read by area A's own rule
 * (export/domain/export-params.ts), which refuses a malformed value with the spec's exact message;
 * names the declaration does not list are area A's rule (export/http/export-query.ts).
 * Plain objects, no zod: this module is in every list function's bundle (the bulk export's requests
 * are export-job-requests.ts).
 */
import { param, uuidPathId, type RequestDeclaration } from '../../kernel/http/request-declaration';
import { parseIncludeParam, parseLimit, parseSessionsInclude, parseTimestampParam, parseTokenParam, parseUuidParam } from '../domain/export-params';

const limit = param(
  {
    // Any positive integer, however large (it clamps): no safe-integer maximum.
    type: 'integer',
    minimum: 1,
    description: 'Page size: default 50, maximum 100 (larger values clamp to 100, with a Warning and X-Svc-Limit-Clamped header)',
  },
  parseLimit,
);
const cursor = param({ description: 'The `next_cursor` of the previous page' }, (raw) => raw);
const iso = (name: string, description: string) =>
  param({ format: 'date-time', description: `ISO 8601 with Z or an offset; ${description}` }, (raw) => parseTimestampParam(name, raw)!);

export const EXPORT_REQUESTS = {
  orgAppsList: { query: {} },
  orgSessionsList: {
    query: {
      limit,
      cursor,
      app_id: param({ format: 'uuid', description: 'Only this app (an unknown UUID gives zero rows)' }, (raw) => parseUuidParam('app_id', raw)!),
      updated_after: iso('updated_after', 'inclusive filter on last_activity_at: the incremental-sync checkpoint'),
      started_after: iso('started_after', 'filter on started_at (bounded backfill only)'),
      started_before: iso('started_before', 'filter on started_at (bounded backfill only)'),
      include: param(
        {
          pattern: '^(messages|tool_details)(,(messages|tool_details))*$',
          description:
            'Comma-separated; `messages` puts each row’s transcript in the row (`messages` and `zdr`, as the messages endpoint gives them), and `tool_details` then adds tool markers to them',
        },
        (raw) => parseSessionsInclude(raw),
      ),
    },
  },
  orgSessionMessages: {
    path: { sessionId: uuidPathId('sessionId') },
    query: {
      include: param({ pattern: '^tool_details(,tool_details)*$', description: 'Comma-separated; `tool_details` adds tool markers to messages' }, (raw) =>
        parseIncludeParam(raw, ['tool_details']),
      ),
    },
  },
  orgUsageList: { query: { limit, cursor, since: iso('since', 'lower bound on created_at') } },
  orgTombstonesList: {
    query: { limit, cursor, cause: param({ description: 'Exact-match filter on cause' }, (raw) => parseTokenParam('cause', raw)!) },
  },
} as const satisfies Readonly<Record<string, RequestDeclaration>>;
