/**
 * The functions of area A's console routes: the org export's reads (the sessions list and transcripts)
 * and, for the bulk export's routes, its job store, queue and bucket, over the admin base (the audit
 * trail) with the console admission on top. Apart from export-wiring.ts, so the org key's functions
 * and the export worker carry none of the console's sign-in.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../kernel/adapters/aws-clients';
import { ENV } from '../kernel/env';
import type { ConversationPorts } from '../conversations/app/conversation-ports';
import { buildConversationPorts } from '../conversations/conversation-wiring';
import { buildAdminBaseDeps, type AdminBaseDeps } from '../tenancy/wiring/admin-wiring';
import { onFirstUse } from '../tenancy/wiring/core-wiring';
import type { ConsoleWiringOptions } from '../tenancy/wiring/console-identity-wiring';
import { withConsoleCallers, type ConsoleCallerPorts } from '../tenancy/wiring/console-tenancy-wiring';
import type { ExportJobListPorts, ExportJobPorts, ExportPorts } from './app/export-ports';
import { buildExportJobPorts, buildExportPorts } from './export-wiring';

/** The console's list and transcript routes. */
export type ConsoleExportDeps = AdminBaseDeps & ConversationPorts & ExportPorts & ConsoleCallerPorts;
/** The console's bulk export routes. */
export type ConsoleExportJobDeps = ConsoleExportDeps & ExportJobPorts & ExportJobListPorts;

function readDeps(opts: ConsoleWiringOptions, db: DynamoDBDocumentClient) {
  const table = opts.env[ENV.tableName];
  return { ...buildAdminBaseDeps(opts, db), ...buildConversationPorts(db, table), ...buildExportPorts(db, table) };
}

export function buildConsoleExportDeps(opts: ConsoleWiringOptions): ConsoleExportDeps {
  const db = createDocumentClient(opts.aws ?? {});
  return withConsoleCallers(opts, db, readDeps(opts, db));
}

export function buildConsoleExportJobDeps(opts: ConsoleWiringOptions): ConsoleExportJobDeps {
  const db = createDocumentClient(opts.aws ?? {});
  return withConsoleCallers(opts, db, { ...readDeps(opts, db), ...buildExportJobPorts(opts, db, opts.env[ENV.tableName]) });
}

export const consoleExportProductionDeps = /* @__PURE__ */ onFirstUse(buildConsoleExportDeps);
export const consoleExportJobProductionDeps = /* @__PURE__ */ onFirstUse(buildConsoleExportJobDeps);
