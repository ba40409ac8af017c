/**
 * Area A's part of the console OpenAPI document: an org's sessions, a transcript and bulk exports (the
 * console routes of export/export-routes.ts), joined in functions/openapi/console-document.ts.
 */
import * as z from 'zod';
import { isoTime, json, uuid, type OperationDoc } from '../../kernel/openapi-kit';
import { CONSOLE_ERRORS } from '../../tenancy/openapi/tenancy-console-operations';
import { EXPORT_CONSOLE_REQUESTS as R } from './export-console-requests';
import { toolMarker } from './export-schemas';

const SESSIONS = 'Conversations';
const EXPORTS = 'Exports';

const session = z
  .object({
    id: uuid,
    appId: uuid,
    consumerId: z.nullable(uuid),
    consumerEmail: z.nullable(z.string()),
    externalId: z.nullable(z.string()),
    source: z.string(),
    title: z.nullable(z.string()).meta({ description: 'The first user message’s text: null for a role that may not read transcripts' }),
    startedAt: isoTime,
    endedAt: isoTime,
    lastActivityAt: isoTime,
    lastMessageAt: z.nullable(isoTime),
  })
  .meta({ title: 'ConsoleSession' });
const message = z
  .object({
    id: z.string(),
    role: z.enum(['user', 'assistant', 'system', 'tool']),
    content: z.string().meta({ description: 'Empty on a `tool` message: tool inputs and outputs are not kept in transcripts' }),
    createdAt: isoTime,
    tools: z.optional(z.array(toolMarker)),
    files: z.optional(
      z.array(z.object({ fileId: z.string(), fileName: z.string(), kind: z.enum(['image', 'pdf', 'docx']) })).meta({
        description: 'The files attached to a user message (chat `files`), by name and kind',
      }),
    ),
  })
  .meta({ title: 'ConsoleMessage' });
const list = z.enum(['apps', 'sessions', 'usage', 'tombstones']);
const job = z
  .object({
    id: uuid,
    status: z.enum(['running', 'completed', 'failed']),
    lists: z.array(list),
    createdAt: isoTime,
    updatedAfter: isoTime.meta({ description: 'The watermark: every list holds what was visible at it (the incremental export continues from it)' }),
    completedAt: z.nullable(isoTime),
    progress: z.array(z.object({ list, files: z.int(), done: z.boolean() })),
    files: z
      .array(z.object({ list, url: z.string(), rows: z.int(), bytes: z.int() }))
      .meta({ description: 'Once completed: gzipped NDJSON in the org export’s own row shapes; empty in a list of jobs' }),
    urlsExpireAt: z.nullable(isoTime),
    error: z.nullable(z.string()),
  })
  .meta({ title: 'ConsoleExport' });
const jobAnswer = json(z.object({ data: job }).meta({ title: 'ConsoleExportAnswer' }));

export const EXPORT_CONSOLE_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  consoleSessionsList: {
    tag: SESSIONS,
    summary: 'List sessions',
    description:
      'The org’s sessions by last activity then id, newest first, as the Org Export lists them (a session shows once it is older than the visibility delay). Filters: `appId`; `from` (inclusive) and `to` (exclusive), ISO 8601 timestamps bounding the last activity; `externalId`; `consumerEmail` (the consumer of that address in each app of the org). Ids, app, consumer and times only: never a message, and the title only for a role that may read transcripts. Follow `nextCursor` with the same filters; null on the last page.',
    request: R.consoleSessionsList,
    ok: {
      status: 200,
      description: 'A page of sessions',
      content: json(z.object({ data: z.array(session), nextCursor: z.nullable(z.string()) }).meta({ title: 'ConsoleSessionsPage' })),
    },
    errors: [...CONSOLE_ERRORS],
  },
  consoleSessionGet: {
    tag: SESSIONS,
    summary: 'Read a transcript',
    description:
      'The session with its query parameters and its messages in order, with their tool markers, as the Org Export’s messages list gives them with `include=tool_details`. An app under Zero Data Retention keeps no messages (`zdr` true, none listed). A session of another org is 404 `Session not found`.',
    request: R.consoleSessionGet,
    ok: {
      status: 200,
      description: 'The transcript',
      content: json(
        z
          .object({
            data: z.object({
              session: session.extend({ queryParams: z.array(z.object({ name: z.string(), value: z.string() })) }),
              zdr: z.boolean(),
              messages: z.array(message),
            }),
          })
          .meta({ title: 'ConsoleTranscriptAnswer' }),
      ),
    },
    errors: [...CONSOLE_ERRORS],
  },
  consoleExportCreate: {
    tag: EXPORTS,
    summary: 'Start a bulk export',
    description:
      'The Org Export’s bulk snapshot, as an org key with every scope starts it: `lists` names some of apps, sessions (with their transcripts), usage and tombstones; an empty body exports every list. The files are written off the request path; read the export until it is `completed` for its download links.',
    request: R.consoleExportCreate,
    ok: { status: 201, description: 'The export, running', content: jobAnswer },
    errors: [...CONSOLE_ERRORS],
  },
  consoleExportsList: {
    tag: EXPORTS,
    summary: 'List bulk exports',
    description: 'The org’s exports of the last 7 days, newest first, without download links (read one export for them).',
    request: R.consoleExportsList,
    ok: {
      status: 200,
      description: 'A page of exports',
      content: json(z.object({ data: z.array(job), nextCursor: z.nullable(z.string()) }).meta({ title: 'ConsoleExportsPage' })),
    },
    errors: [...CONSOLE_ERRORS],
  },
  consoleExportGet: {
    tag: EXPORTS,
    summary: 'Read a bulk export',
    description: 'Its state, and once completed its files with download links valid for an hour. An export of another org is 404 `Export not found`.',
    request: R.consoleExportGet,
    ok: { status: 200, description: 'The export', content: jobAnswer },
    errors: [...CONSOLE_ERRORS],
  },
};
