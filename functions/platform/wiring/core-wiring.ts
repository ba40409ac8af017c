/**
 * The composition root, part 1: what every function has (clock, ids, the tenancy and credential
 * stores, the rate counter, logs and metrics). Each area's wiring adds its own ports on top, so a
 * function's bundle carries only the adapters its area uses (test/infra and `npm run bench -- bundles`).
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient, type AwsClientOptions } from '../adapters/aws-clients';
import { CryptoIds } from '../adapters/crypto-ids';
import { DynamoAppStore } from '../adapters/dynamo-app-store';
import { DynamoCredentialStore } from '../adapters/dynamo-credential-store';
import { DynamoOrgStore } from '../adapters/dynamo-org-store';
import { DynamoRateCounter } from '../adapters/dynamo-rate-counter';
import { SystemClock } from '../adapters/system-clock';
import { ENV, parseEnvVars, type EnvVars } from '../env';
import type { Clock, ApiKeyRegistry, IdGenerator, PlatformPorts, Telemetry } from '../ports/platform-ports';

/** What every function's wiring may be given; each area's wiring extends it with its own test and local seams. */
export interface WiringOptions {
  readonly env: EnvVars;
  readonly aws?: AwsClientOptions;
  /** Injected in tests (a clock before 2026-10-10, say); the system clock otherwise. */
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  /** Set by the local process only: the admin API's bearer token. */
  readonly adminToken?: string;
  readonly logger?: Logger;
  /** The local API gateway (its authorizer cache); on AWS built from the environment. */
  readonly apiKeys?: ApiKeyRegistry;
}

/** What the HTTP kit, the queue kit and the job kit need of every function. */
export type CoreDeps = PlatformPorts &
  Telemetry & {
    /** Locally the admin API checks this token; on AWS it is undefined and API Gateway enforces IAM. */
    readonly adminToken?: string;
  };

export function buildCoreDeps(opts: WiringOptions, db: DynamoDBDocumentClient = createDocumentClient(opts.aws ?? {})): CoreDeps {
  const env = opts.env;
  const table = env[ENV.tableName];
  return {
    clock: opts.clock ?? new SystemClock(),
    ids: opts.ids ?? new CryptoIds(),
    orgs: new DynamoOrgStore(db, table),
    credentials: new DynamoCredentialStore(db, table),
    apps: new DynamoAppStore(db, table),
    rateCounter: new DynamoRateCounter(db, table),
    settings: {
      visibilityDelayMs: env[ENV.visibilityDelayMs],
      anonRetentionDays: env[ENV.anonRetentionDays],
      emptySessionMaxAgeHours: env[ENV.emptySessionMaxAgeHours],
      appDeletionBatchSize: env[ENV.appDeletionBatchSize],
      trustViewerAddress: env[ENV.trustViewerAddress] === 'true',
      ...(env[ENV.publicBaseUrl] !== undefined ? { publicBaseUrl: env[ENV.publicBaseUrl] } : {}),
    },
    logger: opts.logger ?? new Logger(),
    metrics: new Metrics(),
    ...(opts.adminToken !== undefined ? { adminToken: opts.adminToken } : {}),
  };
}

/** Parses the Lambda environment; a missing or malformed variable fails the cold start here. */
export function parseEnv(source: NodeJS.ProcessEnv): EnvVars {
  const parsed = parseEnvVars(source);
  if (!parsed.success) throw new Error(`invalid function environment: ${parsed.invalid.join(', ')}`);
  return parsed.data;
}

/** A Lambda's deps, built from its environment on first use (importing a handler has no side effects). */
export function onFirstUse<T>(build: (opts: WiringOptions) => T): () => T {
  let built: T | undefined;
  return () => (built ??= build({ env: parseEnv(process.env) }));
}
