/**
 * The JSON body of POST /admin/v1/release-notes/periods, in `zod/mini`: the handler parses with it and
 * the admin OpenAPI document shows it (a markdown file with front matter is the other body it takes).
 */
import * as z from 'zod/mini';
import { CHANGE_KINDS } from '../domain/release-notes';
import { isoTimestamp } from '../../platform/openapi/admin-requests';

export const PERIOD_JSON_BODY = z
  .strictObject({
    periodStart: isoTimestamp,
    periodEnd: isoTimestamp,
    title: z.optional(z.string().check(z.maxLength(300))),
    markdown: z.optional(z.string()),
    items: z.optional(z.array(z.strictObject({ title: z.string(), body: z._default(z.string(), ''), kind: z.enum(CHANGE_KINDS) }))),
  })
  .check(z.meta({ title: 'PeriodPublishRequest' }));
