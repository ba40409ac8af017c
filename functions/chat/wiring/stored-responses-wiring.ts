/**
 * The functions of the stored-response routes (get, delete, cancel, input items): the admission's
 * stores, the session store and the response store. They never call a model, a tool or the bucket, so their
 * bundles carry none of a chat turn's adapters.
 */
import { createDocumentClient } from '../../kernel/adapters/aws-clients';
import { ENV } from '../../kernel/env';
import { DynamoSessionStore } from '../../conversations/adapters/dynamo-session-store';
import type { ConversationPorts } from '../../conversations/app/conversation-ports';
import { buildCoreDeps, onFirstUse, type CoreDeps } from '../../tenancy/wiring/core-wiring';
import { DynamoResponseStore } from '../adapters/dynamo-response-store';
import type { ChatPorts } from '../app/chat-ports';

export type StoredResponseFunctionDeps = CoreDeps & Pick<ConversationPorts, 'sessions'> & Pick<ChatPorts, 'responses'>;

export const storedResponseProductionDeps = /* @__PURE__ */ onFirstUse((opts): StoredResponseFunctionDeps => {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return { ...buildCoreDeps(opts, db), sessions: new DynamoSessionStore(db, table), responses: new DynamoResponseStore(db, table) };
});
