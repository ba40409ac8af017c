/**
 * What the admin OpenAPI document says of each admin route beyond the route table, joined from each
 * area's admin fragment (functions/<area>/openapi/<area>-admin-operations.ts) the way operations.ts
 * joins the public ones; the composition's own admin routes (running a job, this document) are here.
 */
import * as z from 'zod';
import { ACP_ADMIN_OPERATIONS } from '../acp/openapi/acp-admin-operations';
import { CHAT_ADMIN_OPERATIONS } from '../chat/openapi/chat-admin-operations';
import { CONVERSATION_ADMIN_OPERATIONS } from '../conversations/openapi/conversation-admin-operations';
import { EXPORT_ADMIN_OPERATIONS } from '../export/openapi/export-admin-operations';
import { adminData } from '../tenancy/openapi/admin-schemas';
import { json, type OperationDoc } from '../kernel/openapi-kit';
import { JOB_REQUESTS } from '../jobs/job-requests';
import { TENANCY_ADMIN_OPERATIONS } from '../tenancy/openapi/tenancy-admin-operations';
import { RELEASE_NOTES_ADMIN_OPERATIONS } from '../release-notes/openapi/release-notes-admin-operations';

const COMPOSITION_ADMIN_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  adminJobRun: {
    tag: 'Jobs',
    summary: 'Run a scheduled job now',
    description:
      'Runs one batch (up to 200 items) of a scheduled job, as its timer would, and answers what it did; run it again for more. Another job name is a 400 that lists them.',
    request: JOB_REQUESTS.adminJobRun,
    ok: {
      status: 200,
      description: 'The job and what its run did',
      content: json(adminData(z.object({ job: z.string(), result: z.record(z.string(), z.unknown()) }), 'JobRunAnswer')),
    },
    errors: [401],
  },
  adminOpenApiGet: {
    tag: 'Reference',
    summary: 'This document',
    description: 'The admin API’s OpenAPI 3.1 document, generated from the route table and the areas’ admin fragments.',
    ok: { status: 200, description: 'The OpenAPI document', content: json(z.record(z.string(), z.unknown()).meta({ title: 'OpenApiDocument' })) },
    errors: [401],
  },
};

/** Every admin route by id. */
export const ADMIN_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  ...TENANCY_ADMIN_OPERATIONS,
  ...EXPORT_ADMIN_OPERATIONS,
  ...CHAT_ADMIN_OPERATIONS,
  ...CONVERSATION_ADMIN_OPERATIONS,
  ...ACP_ADMIN_OPERATIONS,
  ...RELEASE_NOTES_ADMIN_OPERATIONS,
  ...COMPOSITION_ADMIN_OPERATIONS,
};
