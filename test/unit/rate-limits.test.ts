import { describe, expect, it } from 'vitest';
import { RATE_LIMITS, retryAfterSeconds } from '../../functions/kernel/domain/rate-limits';

describe('retryAfterSeconds', () => {
  const start = Date.parse('2026-11-02T10:00:00.000Z');
  const minute = 60_000;

  it('is the whole seconds to the end of the fixed window, rounded up', () => {
    expect(retryAfterSeconds(start, minute, start)).toBe(60);
    expect(retryAfterSeconds(start, minute, start + 1)).toBe(60);
    expect(retryAfterSeconds(start, minute, start + 17_250)).toBe(43);
    expect(retryAfterSeconds(start, minute, start + 17_000)).toBe(43);
    expect(retryAfterSeconds(start, minute, start + 59_000)).toBe(1);
    expect(retryAfterSeconds(start, minute, start + 59_999)).toBe(1);
  });

  it('never answers less than one second', () => {
    expect(retryAfterSeconds(start, minute, start + minute)).toBe(1);
    expect(retryAfterSeconds(start, minute, start + 2 * minute)).toBe(1);
  });

  it('stays an integer between 1 and 60 for every millisecond of a one-minute window', () => {
    for (let offset = 0; offset < minute; offset += 37) {
      const s = retryAfterSeconds(start, minute, start + offset);
      expect(Number.isInteger(s)).toBe(true);
      expect(s).toBeGreaterThanOrEqual(1);
      expect(s).toBeLessThanOrEqual(60);
      expect(s).toBe(Math.ceil((minute - offset) / 1000));
    }
  });
});

describe('RATE_LIMITS', () => {
  it('holds the spec numbers in one-minute windows', () => {
    expect(RATE_LIMITS.orgKey).toEqual({ limit: 120, windowMs: 60_000 });
    expect(RATE_LIMITS.chatKey).toEqual({ limit: 120, windowMs: 60_000 });
    expect(RATE_LIMITS.acpKey).toEqual({ limit: 60, windowMs: 60_000 });
    expect(RATE_LIMITS.acpPublicIp).toEqual({ limit: 200, windowMs: 60_000 });
  });
});
