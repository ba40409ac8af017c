import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../support/clock';
import { startTestPlatform, type TestPlatform } from '../support/platform';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Rate limit and key expiry on a pinned clock: time moves only by `clock.advance`, so the fixed window
 * and the expiry instant are exact.
 */
describe('GET /api/v1/org/apps: rate limit and expiry', () => {
  // 17.25 s into the minute 10:00: the window ends in 42.75 s, so Retry-After is 43.
  const clock = new TestClock('2026-11-02T10:00:17.250Z', false);
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform({ clock });
  });
  afterAll(() => p.stop());

  const list = (token: string, headers?: Record<string, string>) => p.call('GET', '/api/v1/org/apps', { token, ...(headers ? { headers } : {}) });

  it('answers the 121st call in a minute with 429 and Retry-After = seconds to the end of the fixed window', async () => {
    const f = await p.fixture({ scopes: ['apps:read'] });
    const other = await p.fixture({ scopes: ['apps:read'] });
    for (let batch = 0; batch < 4; batch++) {
      const statuses = await Promise.all(Array.from({ length: 30 }, () => list(f.orgKey).then((r) => r.status)));
      expect(
        statuses.every((s) => s === 200),
        String(statuses),
      ).toBe(true);
    }
    const limited = await list(f.orgKey, { 'X-Correlation-ID': 'rl-121' });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
    expect(limited.headers.get('x-correlation-id')).toBe('rl-121');
    const retryAfter = limited.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect(Number(retryAfter)).toBe(43);

    // Still limited later in the same window, with a shorter wait.
    clock.advance(40_000);
    const later = await list(f.orgKey);
    expect(later.status).toBe(429);
    expect(later.headers.get('retry-after')).toBe('3');
    expect(later.headers.get('x-correlation-id')).toMatch(UUID);

    // Another key of the same org is counted on its own.
    expect((await list(other.orgKey)).status).toBe(200);

    // The next window starts fresh.
    clock.advance(3_000);
    const next = await list(f.orgKey);
    expect(next.status).toBe(200);
    expect(next.headers.get('retry-after')).toBeNull();
  });

  it('counts requests that fail the scope check, so a wrong-scope key cannot probe without limit', async () => {
    const f = await p.fixture({ scopes: ['usage:read'] });
    for (let i = 0; i < 4; i++) {
      const statuses = await Promise.all(Array.from({ length: 30 }, () => list(f.orgKey).then((r) => r.status)));
      expect(statuses.every((s) => s === 403)).toBe(true);
    }
    expect((await list(f.orgKey)).status).toBe(429);
  });

  it('rejects a key with 401 once its expiry has passed', async () => {
    const f = await p.fixture({ scopes: ['apps:read'] });
    const expiresAt = new Date(Math.floor(clock.nowUs() / 1000) + 1000).toISOString();
    const key = await p.admin('POST', `/orgs/${f.orgId}/keys`, { scopes: ['apps:read'], expiresAt });
    expect(key.status).toBe(201);
    expect(key.body.data.expiresAt).toBe(expiresAt);
    expect((await list(key.body.data.key)).status).toBe(200);

    clock.advance(1_000);
    const res = await list(key.body.data.key, { 'X-Correlation-ID': 'expired-1' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
    expect(res.headers.get('x-correlation-id')).toBe('expired-1');
    // The org's key without expiry still works.
    expect((await list(f.orgKey)).status).toBe(200);
  });

  it('refuses to create a key that is already expired', async () => {
    const f = await p.fixture();
    const past = new Date(Math.floor(clock.nowUs() / 1000) - 1).toISOString();
    const res = await p.admin('POST', `/orgs/${f.orgId}/keys`, { scopes: ['apps:read'], expiresAt: past });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'bad_request', message: expect.stringContaining('expiresAt') } });
  });
});
