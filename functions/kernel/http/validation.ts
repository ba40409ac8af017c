/**
 * Request-body validation with zod's tree-shakable build (`zod/mini`, ~20 KB in a bundle instead of
 * ~95 KB) and its English messages, which every 400 of the admin and release-notes APIs quotes.
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { badRequest } from '../domain/errors';
import { parseIsoToMicros } from '../domain/time';
import { jsonBody, type BodyRule } from './request-declaration';

/**
 * Classic `zod` registers its English messages when imported; `zod/mini` registers no locale (every
 * issue would read "Invalid input"), so each parse is given the same English messages explicitly.
 */
const ENGLISH = en().localeError;

/**
 * The path of the first own `__proto__` key in `value`, if any. zod skips such a key when it builds a
 * record (so the prototype is never touched), which would drop what the client sent without a word.
 */
function protoKeyPath(value: unknown, path: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (!Array.isArray(value) && Object.hasOwn(value, '__proto__')) return path ? `${path}.__proto__` : '__proto__';
  for (const [k, v] of Object.entries(value)) {
    const found = protoKeyPath(v, path ? `${path}.${k}` : k);
    if (found) return found;
  }
  return undefined;
}

/** Parses `value` with `schema`; the first issue becomes a 400 naming the field. */
export function parseWith<T extends z.ZodMiniType>(schema: T, value: unknown): z.infer<T> {
  const proto = protoKeyPath(value, '');
  if (proto) throw badRequest(`Invalid ${proto}: __proto__ is not accepted as a name`);
  const parsed = schema.safeParse(value, { error: ENGLISH });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'body';
  throw badRequest(`Invalid ${where}: ${issue?.message ?? 'malformed'}`);
}

/**
 * A JSON body parsed with a `zod/mini` schema (its 400s are `parseWith`'s); the OpenAPI document shows
 * the same schema, converted.
 */
export function zodBody<T extends z.ZodMiniType>(
  schema: T,
  options: {
    readonly required?: boolean;
    /** An empty body reads as `{}` (a body whose every member is optional may be left out). */
    readonly emptyAsObject?: boolean;
  } = {},
): BodyRule<z.infer<T>> {
  const rule = jsonBody(schema, (body) => parseWith(schema, body), options);
  if (!options.emptyAsObject) return rule;
  return { ...rule, read: (req) => (req.textBody().trim() ? rule.read(req) : parseWith(schema, {})) };
}

/** An ISO 8601 timestamp with `Z` or an offset, as microseconds. */
export const isoTimestamp = z.pipe(
  z.string(),
  z.transform((value: string, ctx) => {
    const us = parseIsoToMicros(value);
    if (us === undefined) {
      ctx.issues.push({ code: 'custom', message: 'must be an ISO 8601 timestamp (e.g. 2026-01-31T12:00:00.000Z)', input: value });
      return z.NEVER;
    }
    return us;
  }),
);

/** A key bound to one app (a chat or an ACP key): an optional name and expiry; an empty body asks for neither. */
export const appKeyRequest = z.strictObject({ name: z.optional(z.string().check(z.minLength(1), z.maxLength(200))), expiresAt: z.optional(isoTimestamp) });
