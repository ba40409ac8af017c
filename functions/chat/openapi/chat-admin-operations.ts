/**
 * Area B's part of the admin OpenAPI document: issuing a chat key (chat/chat-routes.ts), joined with the
 * other areas' in functions/openapi/admin-operations.ts.
 */
import { APP_KEY_CREATE_BODY } from '../../platform/openapi/admin-requests';
import { adminCredential, adminData, adminJsonBody } from '../../platform/openapi/admin-schemas';
import { json, type OperationDoc } from '../../platform/openapi/openapi-kit';

export const CHAT_ADMIN_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  adminChatKeyCreate: {
    tag: 'Keys',
    summary: 'Issue a chat key',
    description: 'A chat key (`svc_chat_…`) bound to the app, optionally named and expiring; an empty body is an empty object. The answer shows the key once.',
    body: { ...adminJsonBody(APP_KEY_CREATE_BODY), required: false },
    ok: { status: 201, description: 'The key, shown once', content: json(adminData(adminCredential, 'AdminKeyAnswer')) },
    errors: [401, 404],
  },
};
