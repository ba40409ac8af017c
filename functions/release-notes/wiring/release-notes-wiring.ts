/** The release-notes feed and webhook functions (area D): the table, the webhooks queue, sealing and delivery. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../platform/adapters/aws-clients';
import { createSqsClient } from '../../platform/adapters/aws-queue-clients';
import { SqsWebhookQueue } from '../adapters/sqs-webhook-queue';
import { ENV } from '../../platform/env';
import type { ReleaseNotesPorts } from '../ports/release-notes-ports';
import { buildCoreDeps, onFirstUse, type CoreDeps } from '../../platform/wiring/core-wiring';
import { buildWebhookSealing, type OutboundWebhookWiringOptions } from '../../platform/wiring/outbound-webhook-wiring';
import { buildReleaseNotesStores } from './release-notes-read-wiring';

/** Area D's wiring seams: the outbound-webhook ones (the secrets key file, DNS answers, the webhook network policy). */
export type ReleaseNotesWiringOptions = OutboundWebhookWiringOptions;

export type ReleaseNotesFunctionDeps = CoreDeps & ReleaseNotesPorts;

export function buildReleaseNotesPorts(opts: ReleaseNotesWiringOptions, db: DynamoDBDocumentClient = createDocumentClient(opts.aws ?? {})): ReleaseNotesPorts {
  const env = opts.env;
  const table = env[ENV.tableName];
  const sqs = createSqsClient(opts.aws ?? {});
  return {
    ...buildReleaseNotesStores(db, table),
    ...buildWebhookSealing(opts),
    webhookQueue: new SqsWebhookQueue(sqs, env[ENV.webhooksQueueUrl]),
  };
}

export function buildReleaseNotesDeps(opts: ReleaseNotesWiringOptions): ReleaseNotesFunctionDeps {
  const db = createDocumentClient(opts.aws ?? {});
  return { ...buildCoreDeps(opts, db), ...buildReleaseNotesPorts(opts, db) };
}

export const releaseNotesProductionDeps = onFirstUse(buildReleaseNotesDeps);
