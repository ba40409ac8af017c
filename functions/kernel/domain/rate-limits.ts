/**
 * The spec's per-key and per-IP limits, enforced exactly in fixed one-minute windows (docs/design.md §5).
 * The release-notes numbers are the platform's choice (the spec leaves them open).
 */
export type RateLimitClass = 'orgKey' | 'chatKey' | 'acpKey' | 'acpPublicIp' | 'releaseNotesIp' | 'consoleIp' | 'none';

export interface RateLimit {
  readonly limit: number;
  readonly windowMs: number;
}

export const RATE_LIMITS: Record<Exclude<RateLimitClass, 'none'>, RateLimit> = {
  orgKey: { limit: 120, windowMs: 60_000 },
  chatKey: { limit: 120, windowMs: 60_000 },
  acpKey: { limit: 60, windowMs: 60_000 },
  acpPublicIp: { limit: 200, windowMs: 60_000 },
  /**
   * One window per client IP shared by the feed and every subscription route (docs/adr/0011): a feed
   * reader polls far less than once a minute, and it bounds what one address can make the platform
   * send (each subscription created queues up to 5 backfill deliveries).
   */
  releaseNotesIp: { limit: 60, windowMs: 60_000 },
  /** The console's sign-in routes, per client IP: a person signs in and reads their session a few times a minute. */
  consoleIp: { limit: 300, windowMs: 60_000 },
};

/** Whole seconds until the window that holds `nowMs` ends; at least 1. */
export function retryAfterSeconds(windowStartMs: number, windowMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((windowStartMs + windowMs - nowMs) / 1000));
}
