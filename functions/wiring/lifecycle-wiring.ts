/**
 * The lifecycle functions (the jobs worker and the scheduled jobs): the conversation stores and the jobs
 * queue. Deleting a session also removes its variables, so the variable store comes along, and the file
 * cleanup removes objects, so the bucket does; no model,
 * no MCP client, no webhook delivery.
 */
import { createDocumentClient } from '../adapters/aws-clients';
import { DynamoSessionVariableStore } from '../adapters/dynamo-session-variable-store';
import { ENV } from '../env';
import type { AcpPorts, CheckoutPorts } from '../ports/acp';
import type { ChatPorts } from '../ports/chat';
import { buildAcpPorts } from './acp-wiring';
import { buildCheckoutPorts } from './acp-checkout-wiring';
import type { ConversationPorts } from '../ports/conversations';
import type { ObjectStore } from '../ports/files';
import type { JobQueue } from '../ports/platform';
import { buildConversationPorts } from './conversation-wiring';
import { buildJobQueue } from './job-queue-wiring';
import { buildObjectStore } from './object-store-wiring';
import { buildCoreDeps, onFirstUse, type CoreDeps, type WiringOptions } from './core-wiring';

export type LifecycleDeps = CoreDeps & ConversationPorts & Pick<ChatPorts, 'variables'> & AcpPorts & CheckoutPorts & { readonly jobs: JobQueue; readonly objects: ObjectStore };

export function buildLifecycleDeps(opts: WiringOptions): LifecycleDeps {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return {
    ...buildCoreDeps(opts, db),
    ...buildConversationPorts(db, table),
    variables: new DynamoSessionVariableStore(db, table),
    jobs: buildJobQueue(opts),
    // The file-cleanup job removes objects; S3Client is built lazily by the SDK (no connection until used).
    objects: buildObjectStore(opts),
    // The checkout-recovery job finishes interrupted completes (charging only where granted payments:charge).
    ...buildAcpPorts(db, table),
    ...buildCheckoutPorts(opts, db, table),
  };
}

export const lifecycleProductionDeps = onFirstUse(buildLifecycleDeps);
