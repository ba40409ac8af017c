/**
 * Conversations' part of the admin OpenAPI document: importing sessions, deleting a session or a
 * consumer (conversations/conversation-routes.ts), joined with the other areas' in
 * functions/openapi/admin-operations.ts.
 */
import * as z from 'zod';
import { adminData } from '../../tenancy/openapi/admin-schemas';
import { isoTime, json, uuid, type OperationDoc } from '../../kernel/openapi-kit';
import { IMPORT_REQUESTS } from './import-requests';
import { CONVERSATION_REQUESTS } from './conversation-requests';

const TAG = 'Conversations';

const tombstone = z
  .object({ id: z.string(), resourceType: z.enum(['session', 'consumer']), resourceId: uuid, cause: z.string(), deletedAt: isoTime })
  .meta({ title: 'AdminTombstone' });
const deleted = json(adminData(z.object({ tombstone }), 'AdminDeletionAnswer'));

export const CONVERSATION_ADMIN_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  adminImportCreate: {
    tag: TAG,
    summary: 'Import historical sessions',
    description:
      'JSONL: one session with its consumer and messages per line (the schema is one line’s), at most 200 lines. Every line is checked before anything is written: one bad line refuses the import with a 400 naming it. Re-importing a session id is idempotent; a deleted session’s id is a 409.',
    request: IMPORT_REQUESTS.adminImportCreate,
    ok: {
      status: 201,
      description: 'How many sessions were imported, and their ids',
      content: json(adminData(z.object({ imported: z.int(), sessionIds: z.array(uuid) }), 'ImportAnswer')),
    },
    errors: [401, 404, 409],
  },
  adminSessionDelete: {
    tag: TAG,
    summary: 'Delete a session',
    description: 'Removes the session and its messages; its tombstone is in the deletion feed of Org Export.',
    request: CONVERSATION_REQUESTS.adminSessionDelete,
    ok: { status: 200, description: 'The tombstone', content: deleted },
    errors: [401, 404],
  },
  adminConsumerDelete: {
    tag: TAG,
    summary: 'Delete a consumer',
    description: 'Removes the consumer and its sessions (cause `consumer_deleted`); the tombstones are in the deletion feed of Org Export.',
    request: CONVERSATION_REQUESTS.adminConsumerDelete,
    ok: { status: 200, description: 'The consumer’s tombstone', content: deleted },
    errors: [401, 404],
  },
};
