/**
 * The requests of the console's conversation routes (deleting a session or a consumer in an org),
 * keyed by route id: path ids only, all UUIDs. No zod: these bundles take none.
 */
import { uuidPathId } from '../../kernel/http/request-declaration';

const org = { orgId: uuidPathId('orgId') };

export const CONVERSATION_CONSOLE_REQUESTS = {
  consoleSessionDelete: { path: { ...org, sessionId: uuidPathId('sessionId') } },
  consoleConsumerDelete: { path: { ...org, consumerId: uuidPathId('consumerId') } },
};
