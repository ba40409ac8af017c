/** The release-notes feed and webhook functions (area D): the table, the webhooks queue, sealing and delivery. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../platform/adapters/aws-clients';
import { createKmsClient, createSqsClient } from '../../platform/adapters/aws-queue-clients';
import { DnsHostResolver } from '../adapters/dns-host-resolver';
import { FileSecretSealer } from '../adapters/file-secret-sealer';
import { KmsSecretSealer } from '../adapters/kms-secret-sealer';
import { SqsWebhookQueue } from '../adapters/sqs-webhook-queue';
import { ENV } from '../../platform/env';
import type { ReleaseNotesPorts } from '../ports/release-notes-ports';
import { buildCoreDeps, onFirstUse, type CoreDeps, type WiringOptions } from '../../platform/wiring/core-wiring';
import { buildReleaseNotesStores } from './release-notes-read-wiring';
import type { HostResolver, WebhookNetworkPolicy } from '../ports/release-notes-ports';

/** Area D's wiring seams: the secrets key file, DNS answers and the webhook network policy. */
export interface ReleaseNotesWiringOptions extends WiringOptions {
  /**
   * Set by the local process only: webhook secrets are sealed with AES-256-GCM under this key file
   * instead of KMS (KMS has no embedded twin).
   */
  readonly secretsKeyFile?: string;
  /** Tests answer DNS for callback hosts; production resolves with node:dns. */
  readonly resolver?: HostResolver;
  /**
   * Exceptions to the webhook SSRF policy (a loopback receiver with a test CA). Only test wiring
   * passes this; the Lambda wiring and `npm start` never do, and no variable of the environment
   * schema reaches it.
   */
  readonly webhookNetwork?: WebhookNetworkPolicy;
}

export type ReleaseNotesFunctionDeps = CoreDeps & ReleaseNotesPorts;

export function buildReleaseNotesPorts(opts: ReleaseNotesWiringOptions, db: DynamoDBDocumentClient = createDocumentClient(opts.aws ?? {})): ReleaseNotesPorts {
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

export function buildReleaseNotesDeps(opts: ReleaseNotesWiringOptions): ReleaseNotesFunctionDeps {
  const db = createDocumentClient(opts.aws ?? {});
  return { ...buildCoreDeps(opts, db), ...buildReleaseNotesPorts(opts, db) };
}

export const releaseNotesProductionDeps = onFirstUse(buildReleaseNotesDeps);
