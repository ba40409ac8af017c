/**
 * One line of an import (POST /admin/v1/apps/{appId}/imports, JSONL): a historical session with its
 * consumer and messages, in `zod/mini`. The handler parses every line with it; the admin OpenAPI
 * document shows it as the body's line schema.
 */
import * as z from 'zod/mini';
import { isoTimestamp } from '../../platform/openapi/admin-requests';

export const IMPORT_LINE = z
  .strictObject({
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
  })
  .check(z.meta({ title: 'ImportLine' }));
