/**
 * Area D's composition root: the subscription routes, the admin publish route and the webhooks worker
 * share one production deps (the table, the webhooks queue, sealing, the pinned webhook sender and the
 * org credits every admin route has). The feed and the secret-keyed reads have their own, lighter
 * module (release-notes-read-wiring.ts) so their bundles carry no KMS, SQS or DNS client.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../platform/adapters/aws-clients';
import { createSqsClient } from '../../platform/adapters/aws-queue-clients';
import { SqsWebhookQueue } from '../adapters/sqs-webhook-queue';
import { ENV } from '../../platform/env';
import type { ReleaseNotesPorts, WebhookDeliveryPorts } from '../ports/release-notes-ports';
import { buildAdminBaseDeps, type AdminBaseDeps } from '../../platform/wiring/admin-wiring';
import { onFirstUse, type CoreDeps } from '../../platform/wiring/core-wiring';
import { buildWebhookSealing, buildWebhookSender, type OutboundWebhookWiringOptions } from '../../platform/wiring/outbound-webhook-wiring';
import { buildReleaseNotesStores } from './release-notes-read-wiring';

/** Area D's wiring seams: the outbound-webhook ones (the secrets key file, DNS answers, the webhook network policy). */
export type ReleaseNotesWiringOptions = OutboundWebhookWiringOptions;

/** What the subscription routes use. */
export type ReleaseNotesFunctionDeps = CoreDeps & ReleaseNotesPorts;
/** What the publish route uses: an admin route's deps (it queues the fan-out). */
export type AdminReleaseNotesDeps = AdminBaseDeps & ReleaseNotesPorts;
/** What the webhooks worker uses: the ports plus the sender that delivers. */
export type WebhookWorkerDeps = ReleaseNotesFunctionDeps & WebhookDeliveryPorts;

export function buildReleaseNotesPorts(opts: ReleaseNotesWiringOptions, db: DynamoDBDocumentClient = createDocumentClient(opts.aws ?? {})): ReleaseNotesPorts {
  const env = opts.env;
  const sqs = createSqsClient(opts.aws ?? {});
  return {
    ...buildReleaseNotesStores(db, env[ENV.tableName]),
    ...buildWebhookSealing(opts),
    webhookQueue: new SqsWebhookQueue(sqs, env[ENV.webhooksQueueUrl]),
  };
}

export function buildWebhookDeliveryPorts(opts: ReleaseNotesWiringOptions): WebhookDeliveryPorts {
  return { webhookSender: buildWebhookSender(opts) };
}

/** Every deps of the area's functions but the feed's, built once per function instance. */
export function buildReleaseNotesDeps(opts: ReleaseNotesWiringOptions): AdminReleaseNotesDeps & WebhookWorkerDeps {
  const db = createDocumentClient(opts.aws ?? {});
  return { ...buildAdminBaseDeps(opts, db), ...buildReleaseNotesPorts(opts, db), ...buildWebhookDeliveryPorts(opts) };
}

export const releaseNotesProductionDeps = onFirstUse(buildReleaseNotesDeps);
