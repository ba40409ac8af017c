/** The release-notes feed and webhook functions (area D): the table, the webhooks queue, sealing and delivery. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws-clients';
import { createKmsClient, createSqsClient } from '../adapters/aws-queue-clients';
import { DnsHostResolver } from '../adapters/dns-host-resolver';
import { FileSecretSealer } from '../adapters/file-secret-sealer';
import { KmsSecretSealer } from '../adapters/kms-secret-sealer';
import { SqsWebhookQueue } from '../adapters/sqs-webhook-queue';
import { ENV } from '../env';
import type { ReleaseNotesPorts } from '../ports/release-notes';
import { buildCoreDeps, onFirstUse, type CoreDeps, type WiringOptions } from './core-wiring';
import { buildReleaseNotesStores } from './release-notes-read-wiring';

export type ReleaseNotesFunctionDeps = CoreDeps & ReleaseNotesPorts;

export function buildReleaseNotesPorts(opts: WiringOptions, db: DynamoDBDocumentClient = createDocumentClient(opts.aws ?? {})): ReleaseNotesPorts {
  const env = opts.env;
  const table = env[ENV.tableName];
  const sqs = createSqsClient(opts.aws ?? {});
  return {
    ...buildReleaseNotesStores(db, table),
    secrets: opts.secretsKeyFile
      ? new FileSecretSealer(opts.secretsKeyFile)
      : new KmsSecretSealer(createKmsClient(opts.aws ?? {}), env[ENV.webhookSecretsKeyArn]),
    resolver: opts.resolver ?? new DnsHostResolver(),
    webhookQueue: new SqsWebhookQueue(sqs, env[ENV.webhooksQueueUrl]),
    webhookExceptions: opts.webhookNetwork?.allowAddresses ?? [],
  };
}

export function buildReleaseNotesDeps(opts: WiringOptions): ReleaseNotesFunctionDeps {
  const db = createDocumentClient(opts.aws ?? {});
  return { ...buildCoreDeps(opts, db), ...buildReleaseNotesPorts(opts, db) };
}

export const releaseNotesProductionDeps = onFirstUse(buildReleaseNotesDeps);
