/**
 * The whole platform's deps: the admin API, the queue workers, the scheduled jobs, the local process
 * and the tests. Area functions use their own, smaller wiring (export-, chat-, release-notes-wiring).
 */
import { createDocumentClient } from '../kernel/adapters/aws-clients';
import { ENV } from '../kernel/env';
import type { Deps } from './all-ports';
import { apiKeyRegistryFrom } from '../tenancy/wiring/admin-keys-wiring';
import { buildAcpPorts, buildCheckoutPorts, buildOrderEventLog, type AcpWiringOptions } from '../acp/acp-wiring';
import { buildChatPorts, type ChatWiringOptions } from '../chat/wiring/chat-wiring';
import { buildConversationApiPorts } from '../chat/wiring/conversation-api-wiring';
import { buildConversationPorts } from '../conversations/conversation-wiring';
import { buildUsageRollupPorts } from '../conversations/usage-rollup-wiring';
import { buildJobQueue } from '../kernel/wiring/job-queue-wiring';
import { buildCoreDeps, onFirstUse, parseEnv, type CoreDeps } from '../tenancy/wiring/core-wiring';
import { withAuditTrail } from '../tenancy/wiring/audit-wiring';
import { buildExportJobPorts, buildExportPorts } from '../export/export-wiring';
import { buildUploadPorts } from '../chat/wiring/upload-wiring';
import { buildUrlFetcher } from '../chat/wiring/responses-wiring';
import { buildResponseRunQueue } from '../chat/wiring/response-run-wiring';
import { buildConsolePorts } from '../console/console-wiring';
import { withConsoleAdmission, type ConsoleWiringOptions } from '../tenancy/wiring/console-identity-wiring';
import type { ConsoleDeps } from '../console/app/console-ports';
import { buildReleaseNotesPorts, buildWebhookDeliveryPorts, type ReleaseNotesWiringOptions } from '../release-notes/release-notes-wiring';

export { parseEnv };

/** Every area's wiring seams together: what the local process and the tests may pass. */
export type WiringOptions = ChatWiringOptions & AcpWiringOptions & ReleaseNotesWiringOptions & ConsoleWiringOptions;

/** The local process's deps: every port of every area, built once. */
export type LocalDeps = CoreDeps & Deps & ConsoleDeps;

export function buildDeps(opts: WiringOptions): LocalDeps {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  const consolePorts = buildConsolePorts(opts, db);
  return {
    ...withConsoleAdmission(withAuditTrail(opts, db, buildCoreDeps(opts, db)), consolePorts, consolePorts.members, opts),
    ...buildConversationPorts(db, table),
    ...buildUsageRollupPorts(db, table),
    ...buildChatPorts(opts, db),
    responseRuns: buildResponseRunQueue(opts),
    ...buildConversationApiPorts(db, table),
    ...buildUploadPorts(opts),
    urls: buildUrlFetcher(opts),
    ...buildAcpPorts(db, table),
    ...buildCheckoutPorts(opts, db, table),
    ...buildReleaseNotesPorts(opts, db),
    // The order-events worker shares area D's sealer (one key file), resolver, SSRF exceptions and sender.
    ...buildWebhookDeliveryPorts(opts),
    orderEventLog: buildOrderEventLog(db, table),
    ...buildExportPorts(db, table),
    ...buildExportJobPorts(opts, db, table),
    ...consolePorts,
    jobs: buildJobQueue(opts),
    apiKeys: apiKeyRegistryFrom(opts.env, opts),
  };
}

export const platformProductionDeps = onFirstUse(buildDeps);
