/**
 * Area A's wire shapes for the OpenAPI document: apps, sessions, messages, usage rows, tombstones and
 * the cursor-paginated list envelope (cursor pagination is the export API's own, export/domain/cursor.ts).
 */
import * as z from 'zod';
import { isoTime, uuid } from '../../kernel/openapi-kit';

export const exportApp = z.object({ id: uuid, name: z.string(), slug: z.string(), created_at: isoTime, updated_at: isoTime }).meta({ title: 'App' });
const queryParam = z.object({ name: z.string(), value: z.string() });
const sessionSubset = {
  id: uuid,
  app_id: uuid,
  consumer_id: z.nullable(uuid),
  consumer_email: z.nullable(z.string()),
  title: z.string(),
  source: z.string(),
  external_id: z.nullable(z.string()),
  query_params: z.array(queryParam),
  started_at: isoTime,
};
export const exportSessionSubset = z.object(sessionSubset).meta({ title: 'SessionSubset' });
export const exportSession = z
  .object({ ...sessionSubset, ended_at: isoTime, last_activity_at: isoTime, last_message_at: z.nullable(isoTime) })
  .meta({ title: 'Session' });
export const toolMarker = z.object({
  id: z.optional(z.string()),
  name: z.optional(z.string()),
  type: z.optional(z.string()),
  component: z.optional(z.string()),
  success: z.optional(z.boolean()),
});
export const exportMessage = z
  .object({
    id: z.string().meta({ description: 'Opaque: a UUID, or for an imported message without an id one derived from its session and position' }),
    role: z
      .enum(['user', 'assistant', 'system', 'tool'])
      .meta({ description: '`tool`: the result of a client function tool, after the assistant message that called it' }),
    content: z.string().meta({ description: 'Empty on a `tool` message: tool inputs and outputs stay out of the export' }),
    created_at: isoTime,
    tools: z.optional(z.array(toolMarker)),
  })
  .meta({ title: 'Message' });
/** A row of the sessions list: with `include=messages`, its transcript and `zdr` too. */
export const exportSessionRow = exportSession
  .extend({
    messages: z.optional(
      z.nullable(z.array(exportMessage)).meta({
        description:
          'With include=messages: the whole transcript, as the messages endpoint gives it (empty for a Zero Data Retention app); null when it alone outweighs a page: read it from /sessions/{id}/messages',
      }),
    ),
    zdr: z.optional(z.boolean().meta({ description: 'With include=messages: the app keeps no transcripts' })),
  })
  .meta({ title: 'SessionRow' });
export const exportUsageRow = z
  .object({
    id: z.int(),
    app_id: uuid,
    session_id: z.nullable(uuid),
    consumer_id: z.nullable(uuid),
    model: z.string(),
    source: z.string(),
    input_tokens: z.int(),
    output_tokens: z.int(),
    cache_read_input_tokens: z.int(),
    cache_creation_input_tokens: z.int(),
    cost_usd: z.string().meta({ description: 'Decimal USD amount as a string' }),
    created_at: isoTime,
  })
  .meta({ title: 'UsageRow' });
export const exportTombstone = z
  .object({
    id: z.string().meta({ description: 'Monotonic tie-break; opaque' }),
    resource_type: z.string(),
    resource_id: z.string(),
    cause: z.string(),
    deleted_at: isoTime,
  })
  .meta({ title: 'Tombstone' });
const pagination = z.object({ next_cursor: z.string(), has_more: z.boolean(), limit: z.int() });
export const listOf = (item: z.ZodType, title: string) => z.object({ data: z.array(item), pagination }).meta({ title });
export const appsList = z.object({ data: z.array(exportApp) }).meta({ title: 'AppList' });
export const sessionMessages = z
  .object({ data: z.object({ session: exportSessionSubset, messages: z.array(exportMessage), zdr: z.boolean() }) })
  .meta({ title: 'SessionMessages' });

const exportList = z.enum(['apps', 'sessions', 'usage', 'tombstones']);
export const exportJob = z
  .object({
    data: z.object({
      id: uuid,
      status: z.enum(['running', 'completed', 'failed']),
      lists: z.array(exportList),
      created_at: isoTime,
      updated_after: isoTime.meta({
        description: 'The watermark: every list holds what was visible at it. Continue with updated_after (sessions) and since (usage) set to it',
      }),
      completed_at: z.nullable(isoTime),
      progress: z.array(z.object({ list: exportList, files: z.int(), done: z.boolean() })),
      files: z
        .array(z.object({ list: exportList, url: z.string(), rows: z.int(), bytes: z.int() }))
        .meta({ description: 'Once completed: gzipped NDJSON, one row a line in the list’s own shape (a session with messages and zdr)' }),
      urls_expire_at: z.nullable(isoTime),
      error: z.nullable(z.string()),
    }),
  })
  .meta({ title: 'Export' });
