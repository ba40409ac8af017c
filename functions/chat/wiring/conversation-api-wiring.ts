/** The Conversations API's functions: the admission's stores, the conversation stores and the conversations' metadata; no model, no bucket. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../kernel/adapters/aws-clients';
import { ENV } from '../../kernel/env';
import { DynamoConversationMetadataStore } from '../../conversations/adapters/dynamo-conversation-metadata-store';
import type { ConversationPorts } from '../../conversations/app/conversation-ports';
import { buildConversationPorts } from '../../conversations/conversation-wiring';
import { buildCoreDeps, onFirstUse, type CoreDeps } from '../../tenancy/wiring/core-wiring';
import type { ConversationApiPorts } from '../app/chat-ports';

export type ConversationFunctionDeps = CoreDeps & ConversationPorts & ConversationApiPorts;

export function buildConversationApiPorts(db: DynamoDBDocumentClient, table: string): ConversationApiPorts {
  return { conversationMetadata: new DynamoConversationMetadataStore(db, table) };
}

export const conversationApiProductionDeps = /* @__PURE__ */ onFirstUse((opts): ConversationFunctionDeps => {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return { ...buildCoreDeps(opts, db), ...buildConversationPorts(db, table), ...buildConversationApiPorts(db, table) };
});
