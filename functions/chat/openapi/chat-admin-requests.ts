/**
 * The request of area B's admin route (a chat key for an app), keyed by route id: the handler reads
 * its input with it. The body is `zod/mini` (an empty body asks for a key with no name or expiry).
 */
import { uuidPathId } from '../../kernel/http/request-declaration';
import { appKeyRequest, zodBody } from '../../kernel/http/validation';

export const CHAT_ADMIN_REQUESTS = {
  adminChatKeyCreate: { path: { appId: uuidPathId('appId') }, body: zodBody(appKeyRequest, { emptyAsObject: true }) },
};
