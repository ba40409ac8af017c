/**
 * Area D's part of the admin OpenAPI document: publishing a release-note period
 * (release-notes/release-notes-routes.ts), joined with the other areas' in functions/openapi/admin-operations.ts.
 */
import * as z from 'zod';
import { adminData } from '../../tenancy/openapi/admin-schemas';
import { isoTime, json, uuid, type OperationDoc } from '../../kernel/openapi-kit';
import { CHANGE_KINDS } from '../domain/release-notes';
import { RELEASE_NOTES_ADMIN_REQUESTS } from './release-notes-admin-requests';

const period = z
  .object({
    id: uuid,
    title: z.string(),
    periodStart: isoTime,
    periodEnd: isoTime,
    revision: z.string().meta({ description: 'A hash of the content: a changed period is a new revision, delivered again' }),
    items: z.array(z.object({ title: z.string(), body: z.string(), kind: z.enum(CHANGE_KINDS) })),
    markdown: z.string(),
    publishedAt: isoTime,
  })
  .meta({ title: 'AdminReleasePeriod' });

export const RELEASE_NOTES_ADMIN_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  adminReleasePeriodPublish: {
    tag: 'Release notes',
    summary: 'Publish a release-note period',
    description:
      'From JSON or from a markdown file with front matter (`Content-Type: text/markdown`). The period is in the feed at once and its delivery to matching webhook subscriptions has started; publishing the same range again makes a new revision.',
    request: RELEASE_NOTES_ADMIN_REQUESTS.adminReleasePeriodPublish,
    ok: { status: 201, description: 'The published period', content: json(adminData(period, 'AdminReleasePeriodAnswer')) },
    errors: [401],
  },
};
