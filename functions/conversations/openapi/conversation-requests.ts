/**
 * The requests of the conversations admin routes that name a session or a consumer, keyed by route id:
 * the handlers read their path ids with it (UUIDs). No zod: these bundles take none.
 */
import { uuidPathId } from '../../kernel/http/request-declaration';

export const CONVERSATION_REQUESTS = {
  adminSessionDelete: { path: { sessionId: uuidPathId('sessionId') } },
  adminConsumerDelete: { path: { consumerId: uuidPathId('consumerId') } },
};
