/**
 * The request of POST /admin/v1/apps/{appId}/imports, keyed by route id: historical sessions as JSONL,
 * one session with its messages per line, each line a `zod/mini` object. Every line is read before
 * anything is written.
 */
import * as z from 'zod/mini';
import { badRequest } from '../../kernel/domain/errors';
import { uuidPathId, type BodyRule } from '../../kernel/http/request-declaration';
import { isoTimestamp, parseWith } from '../../kernel/http/validation';

/** Keeps one import call inside API Gateway's 29 s integration timeout; split larger files. */
const MAX_LINES = 200;

const line = z.strictObject({
  session: z.strictObject({
    id: z.optional(z.uuid()),
    title: z._default(z.string().check(z.maxLength(500)), ''),
    source: z._default(z.string().check(z.minLength(1), z.maxLength(64)), 'APP'),
    externalId: z._default(z.nullable(z.string().check(z.maxLength(512))), null),
    queryParams: z._default(
      z.array(z.strictObject({ name: z.string().check(z.maxLength(256)), value: z.string().check(z.maxLength(2048)) })).check(z.maxLength(100)),
      [],
    ),
    startedAt: isoTimestamp,
  }),
  consumer: z._default(z.nullable(z.strictObject({ email: z._default(z.nullable(z.email().check(z.maxLength(320))), null) })), null),
  messages: z._default(
    z
      .array(
        z.strictObject({
          id: z.optional(z.string().check(z.minLength(1), z.maxLength(128))),
          role: z.enum(['user', 'assistant', 'system']),
          content: z.string().check(z.maxLength(100_000)),
          createdAt: isoTimestamp,
          tools: z.optional(
            z.array(z.partial(z.strictObject({ id: z.string(), name: z.string(), type: z.string(), component: z.string(), success: z.boolean() }))),
          ),
        }),
      )
      .check(z.maxLength(2000)),
    [],
  ),
});

/** Line `n` (1-based) as the import use case takes it. */
function recordOf(n: number, text: string) {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw badRequest(`Invalid line ${n}: not JSON`);
  }
  let r: z.infer<typeof line>;
  try {
    r = parseWith(line, raw);
  } catch (err) {
    throw badRequest(`Invalid line ${n}: ${(err as Error).message.replace(/^Invalid /, '')}`);
  }
  return {
    session: { ...r.session, startedAtUs: r.session.startedAt },
    consumer: r.consumer,
    messages: r.messages.map((m) => ({ ...m, createdAtUs: m.createdAt })),
  };
}

/** JSONL: each non-empty line one session; a line that is not JSON, or not a session, is a 400 naming it. */
const importLines = {
  contentType: 'application/x-ndjson',
  schema: line,
  required: true,
  read: (req) => {
    const records = req
      .textBody()
      .split('\n')
      .map((l) => l.trim())
      .flatMap((text, i) => (text ? [recordOf(i + 1, text)] : []));
    if (records.length === 0) throw badRequest('Invalid body: expected JSONL with at least one session');
    if (records.length > MAX_LINES) throw badRequest(`Invalid body: at most ${MAX_LINES} sessions per import`);
    return records;
  },
} satisfies BodyRule<unknown>;

export const IMPORT_REQUESTS = {
  adminImportCreate: { path: { appId: uuidPathId('appId') }, body: importLines },
};
