/**
 * The admin API's functions. Each admin route composes the smallest of these (ADR 0014): every one
 * has the stores, credits and session variables (this module); key routes add the gateway's keys
 * (admin-keys-wiring), lifecycle routes the jobs queue (admin-jobs-wiring), and publishing a period
 * the release-notes ports (admin-release-notes-wiring). None has a model, MCP or webhook client.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws-clients';
import { DynamoBillingStore } from '../adapters/dynamo-billing-store';
import { DynamoSessionVariableStore } from '../adapters/dynamo-session-variable-store';
import { ENV } from '../env';
import type { ChatPorts } from '../ports/chat';
import type { ConversationPorts } from '../ports/conversations';
import { buildConversationPorts } from './conversation-wiring';
import { buildCoreDeps, onFirstUse, type CoreDeps, type WiringOptions } from './core-wiring';

/** What every admin function has: the stores, credits and session variables. */
export type AdminBaseDeps = CoreDeps & ConversationPorts & Pick<ChatPorts, 'variables' | 'billing'>;

export function buildAdminBaseDeps(opts: WiringOptions, db: DynamoDBDocumentClient = createDocumentClient(opts.aws ?? {})): AdminBaseDeps {
  const table = opts.env[ENV.tableName];
  return {
    ...buildCoreDeps(opts, db),
    ...buildConversationPorts(db, table),
    variables: new DynamoSessionVariableStore(db, table),
    billing: new DynamoBillingStore(db, table),
  };
}

export const adminProductionDeps = onFirstUse((opts) => buildAdminBaseDeps(opts));
