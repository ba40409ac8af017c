/**
 * Conversations' part of the console OpenAPI document: deleting a session or a consumer of the org
 * (the console routes of conversations/conversation-routes.ts), joined in functions/openapi/console-document.ts.
 */
import * as z from 'zod';
import { isoTime, json, uuid, type OperationDoc } from '../../kernel/openapi-kit';
import { CONSOLE_ERRORS } from '../../tenancy/openapi/tenancy-console-operations';
import { CONVERSATION_CONSOLE_REQUESTS as R } from './conversation-console-requests';

const TAG = 'Conversations';

const tombstone = z
  .object({ id: z.string(), resourceType: z.enum(['session', 'consumer']), resourceId: uuid, cause: z.string(), deletedAt: isoTime })
  .meta({ title: 'ConsoleTombstone' });
const deleted = json(z.object({ data: z.object({ tombstone }) }).meta({ title: 'ConsoleDeletionAnswer' }));

export const CONVERSATION_CONSOLE_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  consoleSessionDelete: {
    tag: TAG,
    summary: 'Delete a session',
    description:
      'Removes the session and its messages, as the admin API’s session delete does: its tombstone (cause `consumer_deleted`) is in the deletion feed of Org Export. A session of another org is 404 `Session not found`.',
    request: R.consoleSessionDelete,
    ok: { status: 200, description: 'The tombstone', content: deleted },
    errors: [...CONSOLE_ERRORS],
  },
  consoleConsumerDelete: {
    tag: TAG,
    summary: 'Delete a consumer',
    description:
      'Removes the consumer and every session of theirs, as the admin API’s consumer delete does: one tombstone per session, then the consumer’s (cause `consumer_deleted`). A consumer of another org is 404 `Consumer not found`.',
    request: R.consoleConsumerDelete,
    ok: { status: 200, description: 'The consumer’s tombstone', content: deleted },
    errors: [...CONSOLE_ERRORS],
  },
};
