/** The admin routes over conversations (import, session and consumer deletion): the base admin deps plus the conversation stores. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../platform/adapters/aws-clients';
import { ENV } from '../../platform/env';
import { buildAdminBaseDeps, type AdminBaseDeps } from '../../platform/wiring/admin-wiring';
import { onFirstUse, type WiringOptions } from '../../platform/wiring/core-wiring';
import type { ConversationPorts } from '../ports/conversation-ports';
import { buildConversationPorts } from './conversation-wiring';

export type ConversationAdminDeps = AdminBaseDeps & ConversationPorts;

export function buildConversationAdminDeps(opts: WiringOptions, db: DynamoDBDocumentClient = createDocumentClient(opts.aws ?? {})): ConversationAdminDeps {
  return { ...buildAdminBaseDeps(opts, db), ...buildConversationPorts(db, opts.env[ENV.tableName]) };
}

export const conversationAdminProductionDeps = onFirstUse((opts) => buildConversationAdminDeps(opts));
