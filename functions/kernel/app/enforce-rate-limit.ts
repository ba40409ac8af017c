import { RateLimitedError } from '../domain/errors';
import { retryAfterSeconds, type RateLimit } from '../domain/rate-limits';
import { microsToMs } from '../domain/time';
import type { Clock, RateCounter } from './kernel-ports';

/**
 * Counts one request of `subject` in its fixed window and rejects it once the window's limit is
 * passed, with the seconds until the window ends. The 121st request of a 120/min window is refused.
 */
export async function enforceRateLimit(
  deps: { readonly rateCounter: RateCounter; readonly clock: Clock },
  input: { subject: string; limit: RateLimit },
): Promise<void> {
  const nowMs = microsToMs(deps.clock.nowUs());
  const window = await deps.rateCounter.hit(input.subject, input.limit.windowMs, nowMs);
  if (window.count > input.limit.limit) {
    throw new RateLimitedError(retryAfterSeconds(window.windowStartMs, input.limit.windowMs, nowMs));
  }
}
