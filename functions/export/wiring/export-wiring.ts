/** The Org Export API's functions (area A): the table and nothing else. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../platform/adapters/aws-clients';
import { DynamoExportReader } from '../adapters/dynamo-export-reader';
import { DynamoKeyMaterial } from '../adapters/dynamo-key-material';
import { ENV } from '../../platform/env';
import type { ConversationPorts } from '../../conversations/ports/conversation-ports';
import type { ExportPorts } from '../ports/export-ports';
import { buildConversationPorts } from '../../conversations/wiring/conversation-wiring';
import { buildCoreDeps, onFirstUse, type CoreDeps, type WiringOptions } from '../../platform/wiring/core-wiring';

export type ExportFunctionDeps = CoreDeps & ConversationPorts & ExportPorts;

export function buildExportPorts(db: DynamoDBDocumentClient, table: string): ExportPorts {
  return { exportReader: new DynamoExportReader(db, table), keys: new DynamoKeyMaterial(db, table) };
}

export function buildExportDeps(opts: WiringOptions): ExportFunctionDeps {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return { ...buildCoreDeps(opts, db), ...buildConversationPorts(db, table), ...buildExportPorts(db, table) };
}

export const exportProductionDeps = onFirstUse(buildExportDeps);
