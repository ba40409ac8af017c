/**
 * The kernel's part of every function's composition root: the clock, ids, the rate counter, logs,
 * metrics and the tunables of the environment. Tenancy's core wiring (core-wiring.ts) adds the org, app
 * and credential stores and the key admission on top; each area's wiring adds its own ports.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AwsClientOptions } from '../adapters/aws-clients';
import { CryptoIds } from '../adapters/crypto-ids';
import { DynamoRateCounter } from '../adapters/dynamo-rate-counter';
import { SystemClock } from '../adapters/system-clock';
import { ENV, type EnvVars } from '../env';
import type { Clock, IdGenerator, PlatformSettings, RateCounter, Telemetry } from '../app/kernel-ports';

/** What the kernel's wiring may be given: the environment, and the seams tests and the local process use. */
export interface KernelWiringOptions {
  readonly env: EnvVars;
  readonly aws?: AwsClientOptions;
  /** Injected in tests (a clock before 2026-10-10, say); the system clock otherwise. */
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  readonly logger?: Logger;
}

/** The kernel's ports every function has. */
export type KernelPorts = Telemetry & {
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly rateCounter: RateCounter;
  readonly settings: PlatformSettings;
};

export function buildKernelPorts(opts: KernelWiringOptions, db: DynamoDBDocumentClient): KernelPorts {
  const env = opts.env;
  return {
    clock: opts.clock ?? new SystemClock(),
    ids: opts.ids ?? new CryptoIds(),
    rateCounter: new DynamoRateCounter(db, env[ENV.tableName]),
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
  };
}
