/**
 * Area B's part of the admin OpenAPI document: issuing a chat key (chat/chat-routes.ts), joined with the
 * other areas' in functions/openapi/admin-operations.ts.
 */
import { adminCredential, adminData } from '../../tenancy/openapi/admin-schemas';
import { json, type OperationDoc } from '../../kernel/openapi-kit';
import { CHAT_ADMIN_REQUESTS } from './chat-admin-requests';

export const CHAT_ADMIN_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  adminChatKeyCreate: {
    tag: 'Keys',
    summary: 'Issue a chat key',
    description: 'A chat key (`svc_chat_…`) bound to the app, optionally named and expiring; an empty body is an empty object. The answer shows the key once.',
    request: CHAT_ADMIN_REQUESTS.adminChatKeyCreate,
    ok: { status: 201, description: 'The key, shown once', content: json(adminData(adminCredential, 'AdminKeyAnswer')) },
    errors: [401, 404],
  },
};
