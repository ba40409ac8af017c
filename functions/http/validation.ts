import * as z from 'zod';
import { badRequest } from '../domain/errors';
import { parseIsoToMicros } from '../domain/time';

/** Parses `value` with `schema`; the first issue becomes a 400 naming the field. */
export function parseWith<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'body';
  throw badRequest(`Invalid ${where}: ${issue?.message ?? 'malformed'}`);
}

/** An ISO 8601 timestamp with `Z` or an offset, as microseconds. */
export const isoTimestamp = z.string().transform((value, ctx) => {
  const us = parseIsoToMicros(value);
  if (us === undefined) {
    ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 timestamp (e.g. 2026-01-31T12:00:00.000Z)' });
    return z.NEVER;
  }
  return us;
});

export const appSettingsPatch = z
  .object({
    zeroDataRetention: z.boolean(),
    imageInput: z.object({ enabled: z.boolean(), maxPerConversation: z.number().int().min(0).max(1000) }).partial().strict(),
    model: z.string().min(1).max(200),
    mcpConnections: z
      .array(
        z
          .object({
            name: z.string().min(1).max(64),
            url: z.string().url().max(2048),
            // HTTP token characters only: an invalid name would fail every turn of the app.
            headers: z.record(z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/, 'must be an HTTP header name'), z.string().max(4096)).default({}),
          })
          .strict(),
      )
      .max(20),
    monthlyUsageCapUsd: z
      .string()
      .regex(/^\d{1,9}(\.\d{1,12})?$/, 'must be a decimal USD amount such as "50.00"')
      .nullable(),
  })
  .partial()
  .strict();
