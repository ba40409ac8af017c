/**
 * The ports every slice may use: time, ids, the rate counter, the jobs queue, idempotency keys, logs
 * and metrics, and the tunables of the environment. Tenancy's own ports (orgs, apps, keys, credits) are
 * in tenancy-ports.ts.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Metrics } from '@aws-lambda-powertools/metrics';
import type { Micros } from '../domain/time';

export interface Clock {
  /** Microseconds since the epoch, never going backwards within a process. */
  nowUs(): Micros;
}

export interface IdGenerator {
  uuid(): string;
  /** `length` characters from a CSPRNG over [A-Za-z0-9]. */
  secret(length: number): string;
}

export interface RateLimitWindow {
  readonly count: number;
  readonly windowStartMs: number;
}

export interface RateCounter {
  /** Counts one request of `subject` in the fixed window that holds `nowMs`. */
  hit(subject: string, windowMs: number, nowMs: number): Promise<RateLimitWindow>;
}

/**
 * Messages of the jobs queue: the asynchronous halves of lifecycle operations. `appId` is a UUID; the
 * jobs worker refuses any other body as poison (docs/adr/0025).
 */
export type JobMessage = { readonly type: 'app-deletion'; readonly appId: string };

export interface JobQueue {
  send(job: JobMessage, delaySeconds?: number): Promise<void>;
}

/** Tunables of the lifecycle jobs and the export, from the environment. */
export interface PlatformSettings {
  readonly visibilityDelayMs: number;
  readonly anonRetentionDays: number;
  readonly emptySessionMaxAgeHours: number;
  readonly appDeletionBatchSize: number;
  /**
   * The function sits behind the CloudFront front door, whose origins accept only its requests: the
   * client address is the front door's `X-Viewer-Ip` (functions/kernel/http/api-gateway-contract.ts) instead of the connection's peer.
   */
  readonly trustViewerAddress: boolean;
  /** The configured `{base_url}` (`PUBLIC_BASE_URL`), when there is one. */
  readonly publicBaseUrl?: string;
}

/** Logs and metrics of the function or process (Powertools); events are never logged. */
export interface Telemetry {
  readonly logger: Logger;
  readonly metrics: Metrics;
}

export type IdempotencyBegin =
  | { readonly state: 'new' }
  | { readonly state: 'replay'; readonly status: number; readonly body: unknown }
  | { readonly state: 'conflict' }
  | { readonly state: 'in_flight' };

/**
 * Idempotency keys of POSTs (area C's checkout, area B's chat turns), scoped to (API key, route, key),
 * kept 24 hours. A key still in flight after `inFlightMs` (its request crashed or timed out) is taken
 * over by the next request with it.
 */
export interface IdempotencyStore {
  begin(scope: string, fingerprint: string, nowMs: number, inFlightMs?: number): Promise<IdempotencyBegin>;
  /** Stores the answer for replays (never a 5xx: the key is then forgotten, so a retry is a new request). */
  finish(scope: string, response: { readonly status: number; readonly body: unknown } | undefined): Promise<void>;
}
