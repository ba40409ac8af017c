/**
 * The composition root: configuration -> clients -> adapters, built once per cold start (Lambda) or
 * once per process (local server, tests). Nothing else constructs adapters.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { CryptoIds } from './adapters/crypto-ids';
import { createDocumentClient, createKmsClient, createSqsClient, type AwsClientOptions } from './adapters/aws-clients';
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { DynamoAppStore } from './adapters/dynamo-app-store';
import { DynamoBillingStore } from './adapters/dynamo-billing-store';
import { DynamoSessionVariableStore } from './adapters/dynamo-session-variable-store';
import { McpToolGateway } from './adapters/mcp-tool-gateway';
import { ConfiguredModelCatalog } from './adapters/model-catalog';
import { DnsHostResolver } from './adapters/dns-host-resolver';
import { DynamoConsumerStore } from './adapters/dynamo-consumer-store';
import { DynamoDeliveryLog } from './adapters/dynamo-delivery-log';
import { DynamoReleaseNoteStore } from './adapters/dynamo-release-note-store';
import { DynamoSubscriptionStore } from './adapters/dynamo-subscription-store';
import { FileSecretSealer } from './adapters/file-secret-sealer';
import { KmsSecretSealer } from './adapters/kms-secret-sealer';
import { SqsWebhookQueue } from './adapters/sqs-webhook-queue';
import { UndiciWebhookSender } from './adapters/undici-webhook-sender';
import { DynamoCredentialStore } from './adapters/dynamo-credential-store';
import { DynamoExportReader } from './adapters/dynamo-export-reader';
import { DynamoKeyMaterial } from './adapters/dynamo-key-material';
import { DynamoOrgStore } from './adapters/dynamo-org-store';
import { DynamoRateCounter } from './adapters/dynamo-rate-counter';
import { DynamoSessionStore } from './adapters/dynamo-session-store';
import { DynamoTombstoneStore } from './adapters/dynamo-tombstone-store';
import { DynamoUsageStore } from './adapters/dynamo-usage-store';
import { SqsJobQueue } from './adapters/sqs-job-queue';
import { SystemClock } from './adapters/system-clock';
import { ENV, envSchema, type EnvVars } from './env';
import type { HttpDeps } from './http/kit';
import type { ToolGateway } from './ports/chat';
import type { Clock, IdGenerator } from './ports/platform';
import type { HostResolver, WebhookNetworkPolicy } from './ports/release-notes';

export interface WiringOptions {
  readonly env: EnvVars;
  readonly aws?: AwsClientOptions;
  /** Injected in tests (a clock before 2026-10-10, say); the system clock otherwise. */
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  /** Set by the local process only: the admin API's bearer token. */
  readonly adminToken?: string;
  readonly logger?: Logger;
  /** Tests may swap the MCP gateway's transport-level behaviour; production uses McpToolGateway. */
  readonly tools?: ToolGateway;
  /**
   * Set by the local process only: webhook secrets are sealed with AES-256-GCM under this key file
   * instead of KMS (KMS has no embedded twin).
   */
  readonly secretsKeyFile?: string;
  /** Tests answer DNS for callback hosts; production resolves with node:dns. */
  readonly resolver?: HostResolver;
  /**
   * Exceptions to the webhook SSRF policy (a loopback receiver with a test CA). Only test wiring
   * passes this; the Lambda wiring (productionDeps) and `npm start` never do, and no variable of the
   * environment schema reaches it.
   */
  readonly webhookNetwork?: WebhookNetworkPolicy;
}

export type PlatformDeps = HttpDeps;

export function buildDeps(opts: WiringOptions): PlatformDeps {
  const env = opts.env;
  const table = env[ENV.tableName];
  const db = createDocumentClient(opts.aws ?? {});
  const sqs = createSqsClient(opts.aws ?? {});
  const openAiBaseUrl = env[ENV.openAiBaseUrl];
  const openAiApiKey = env[ENV.openAiApiKey];
  return {
    clock: opts.clock ?? new SystemClock(),
    ids: opts.ids ?? new CryptoIds(),
    orgs: new DynamoOrgStore(db, table),
    credentials: new DynamoCredentialStore(db, table),
    apps: new DynamoAppStore(db, table),
    sessions: new DynamoSessionStore(db, table),
    consumers: new DynamoConsumerStore(db, table),
    usage: new DynamoUsageStore(db, table),
    tombstones: new DynamoTombstoneStore(db, table),
    rateCounter: new DynamoRateCounter(db, table),
    jobs: new SqsJobQueue(sqs, env[ENV.jobsQueueUrl]),
    exportReader: new DynamoExportReader(db, table),
    keys: new DynamoKeyMaterial(db, table),
    models: new ConfiguredModelCatalog({
      ...(env[ENV.bedrockEnabled] === 'true' ? { bedrock: new BedrockRuntimeClient({ region: opts.aws?.region }) } : {}),
      ...(openAiBaseUrl !== undefined ? { openai: { baseUrl: openAiBaseUrl, ...(openAiApiKey !== undefined ? { apiKey: openAiApiKey } : {}) } } : {}),
    }),
    tools: opts.tools ?? new McpToolGateway(),
    variables: new DynamoSessionVariableStore(db, table),
    billing: new DynamoBillingStore(db, table),
    releaseNotes: new DynamoReleaseNoteStore(db, table),
    subscriptions: new DynamoSubscriptionStore(db, table),
    deliveryLog: new DynamoDeliveryLog(db, table),
    secrets: opts.secretsKeyFile
      ? new FileSecretSealer(opts.secretsKeyFile)
      : new KmsSecretSealer(createKmsClient(opts.aws ?? {}), env[ENV.webhookSecretsKeyArn]),
    resolver: opts.resolver ?? new DnsHostResolver(),
    webhookSender: new UndiciWebhookSender(opts.webhookNetwork?.trustedCaPem ? { trustedCaPem: opts.webhookNetwork.trustedCaPem } : {}),
    webhookQueue: new SqsWebhookQueue(sqs, env[ENV.webhooksQueueUrl]),
    webhookExceptions: opts.webhookNetwork?.allowAddresses ?? [],
    settings: {
      visibilityDelayMs: env[ENV.visibilityDelayMs],
      anonRetentionDays: env[ENV.anonRetentionDays],
      emptySessionMaxAgeHours: env[ENV.emptySessionMaxAgeHours],
      appDeletionBatchSize: env[ENV.appDeletionBatchSize],
    },
    logger: opts.logger ?? new Logger(),
    metrics: new Metrics(),
    ...(opts.adminToken !== undefined ? { adminToken: opts.adminToken } : {}),
  };
}

/** Parses the Lambda environment; a missing or malformed variable fails the cold start here. */
export function parseEnv(source: NodeJS.ProcessEnv): EnvVars {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const names = parsed.error.issues.map((i) => i.path.join('.')).join(', ');
    throw new Error(`invalid function environment: ${names}`);
  }
  return parsed.data;
}

let production: PlatformDeps | undefined;

/** The Lambda's deps, built on first use (importing a handler module has no side effects). */
export function productionDeps(): PlatformDeps {
  production ??= buildDeps({ env: parseEnv(process.env) });
  return production;
}
