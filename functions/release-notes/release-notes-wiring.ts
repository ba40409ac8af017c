/**
 * Area D's composition root. The feed and the secret-keyed reads use the table only; the subscription
 * routes, the admin publish route and the webhooks worker share one production deps (the table, the
 * webhooks queue, sealing, the pinned webhook sender and the org credits every admin route has). Each
 * production deps is a pure declaration, so the feed's bundle carries no KMS, SQS or DNS client.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../kernel/adapters/aws-clients';
import { createSqsClient } from '../kernel/adapters/aws-queue-clients';
import { DynamoDeliveryLog } from './adapters/dynamo-delivery-log';
import { DynamoReleaseNoteStore } from './adapters/dynamo-release-note-store';
import { DynamoSubscriptionStore } from './adapters/dynamo-subscription-store';
import { SqsWebhookQueue } from './adapters/sqs-webhook-queue';
import { ENV } from '../kernel/env';
import type { ReleaseNotesPorts, WebhookDeliveryPorts } from './app/release-notes-ports';
import { buildAdminBaseDeps, type AdminBaseDeps } from '../tenancy/wiring/admin-wiring';
import { buildCoreDeps, onFirstUse, type CoreDeps, type WiringOptions } from '../tenancy/wiring/core-wiring';
import { buildWebhookSealing, buildWebhookSender, type OutboundWebhookWiringOptions } from '../kernel/wiring/outbound-webhook-wiring';

/** Area D's wiring seams: the outbound-webhook ones (the secrets key file, DNS answers, the webhook network policy). */
export type ReleaseNotesWiringOptions = OutboundWebhookWiringOptions;

export type ReleaseNotesStorePorts = Pick<ReleaseNotesPorts, 'releaseNotes' | 'subscriptions' | 'deliveryLog'>;
/** What the feed and the secret-keyed reads use: the table only. */
export type ReleaseNotesReadDeps = CoreDeps & ReleaseNotesStorePorts;
/** What the subscription routes use. */
export type ReleaseNotesFunctionDeps = CoreDeps & ReleaseNotesPorts;
/** What the publish route uses: an admin route's deps (it queues the fan-out). */
export type AdminReleaseNotesDeps = AdminBaseDeps & ReleaseNotesPorts;
/** What the webhooks worker uses: the ports plus the sender that delivers. */
export type WebhookWorkerDeps = ReleaseNotesFunctionDeps & WebhookDeliveryPorts;

/** The release-notes stores: periods, subscriptions and the delivery log. */
export function buildReleaseNotesStores(db: DynamoDBDocumentClient, table: string): ReleaseNotesStorePorts {
  return {
    releaseNotes: new DynamoReleaseNoteStore(db, table),
    subscriptions: new DynamoSubscriptionStore(db, table),
    deliveryLog: new DynamoDeliveryLog(db, table),
  };
}

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

export function buildReleaseNotesReadDeps(opts: WiringOptions): ReleaseNotesReadDeps {
  const db = createDocumentClient(opts.aws ?? {});
  return { ...buildCoreDeps(opts, db), ...buildReleaseNotesStores(db, opts.env[ENV.tableName]) };
}

export const releaseNotesReadProductionDeps = /* @__PURE__ */ onFirstUse(buildReleaseNotesReadDeps);
export const releaseNotesProductionDeps = /* @__PURE__ */ onFirstUse(buildReleaseNotesDeps);
