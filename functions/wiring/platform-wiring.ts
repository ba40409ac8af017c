/**
 * The whole platform's deps: the admin API, the queue workers, the scheduled jobs, the local process
 * and the tests. Area functions use their own, smaller wiring (export-, chat-, release-notes-wiring).
 */
import { createDocumentClient } from '../adapters/aws-clients';
import { ENV } from '../env';
import type { Deps } from '../ports/deps';
import { gatewayKeysFrom } from './admin-keys-wiring';
import { buildCheckoutPorts } from './acp-checkout-wiring';
import { buildAcpPorts } from './acp-wiring';
import { buildChatPorts } from './chat-wiring';
import { buildConversationPorts } from './conversation-wiring';
import { buildJobQueue } from './job-queue-wiring';
import { buildCoreDeps, onFirstUse, parseEnv, type CoreDeps, type WiringOptions } from './core-wiring';
import { buildExportPorts } from './export-wiring';
import { buildFilePorts } from './file-wiring';
import { buildReleaseNotesPorts } from './release-notes-wiring';
import { buildWebhookDeliveryPorts } from './webhook-delivery-wiring';

export { parseEnv, type WiringOptions };

export type PlatformDeps = CoreDeps & Deps;

export function buildDeps(opts: WiringOptions): PlatformDeps {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return {
    ...buildCoreDeps(opts, db),
    ...buildConversationPorts(db, table),
    ...buildChatPorts(opts, db),
    ...buildFilePorts(opts),
    ...buildAcpPorts(db, table),
    ...buildCheckoutPorts(opts, db, table),
    ...buildReleaseNotesPorts(opts, db),
    ...buildWebhookDeliveryPorts(opts),
    ...buildExportPorts(db, table),
    jobs: buildJobQueue(opts),
    gatewayKeys: gatewayKeysFrom(opts.env, opts),
  };
}

export const platformProductionDeps = onFirstUse(buildDeps);
