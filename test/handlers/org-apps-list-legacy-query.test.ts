import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../support/clock';
import { startTestPlatform, type TestPlatform } from '../support/platform';

/** Unrecognized query parameters on both sides of 2026-10-10T00:00:00Z, on a pinned clock. */
describe('GET /api/v1/org/apps: unknown query parameters around 2026-10-10', () => {
  const clock = new TestClock('2026-10-09T23:59:59Z', false);
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform({ clock });
  });
  afterAll(() => p.stop());

  it('answers 200 with Warning and X-Svc-Unknown-Query-Params before the date, and 400 from it', async () => {
    const f = await p.fixture({ scopes: ['apps:read'] });

    const plain = await p.call('GET', '/api/v1/org/apps', { token: f.orgKey });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('warning')).toBeNull();
    expect(plain.headers.get('x-svc-unknown-query-params')).toBeNull();

    const legacy = await p.call('GET', '/api/v1/org/apps?foo=1&created_after=2026-01-01T00:00:00Z', { token: f.orgKey });
    expect(legacy.status).toBe(200);
    // Legacy behaviour: the parameters are ignored, the result is the unfiltered list.
    expect(legacy.body).toEqual(plain.body);
    expect(legacy.headers.get('x-svc-unknown-query-params')).toBe('foo,created_after');
    const warning = legacy.headers.get('warning') ?? '';
    expect(warning).toMatch(/^299 - ".*"$/);
    expect(warning).toContain('foo');
    expect(warning).toContain('created_after');
    expect(warning).toContain('2026-10-10');

    // A name the client chose freely never breaks the response headers.
    const odd = await p.call('GET', '/api/v1/org/apps?a%0Ab=1&%F0%9F%98%80=2', { token: f.orgKey });
    expect(odd.status, odd.text).toBe(200);
    expect(odd.headers.get('x-svc-unknown-query-params')).toBe('a%0Ab,%F0%9F%98%80');

    clock.advance(1_000); // 2026-10-10T00:00:00.000Z
    const rejected = await p.call('GET', '/api/v1/org/apps?foo=1', { token: f.orgKey });
    expect(rejected.status).toBe(400);
    expect(rejected.body).toEqual({ error: { code: 'bad_request', message: expect.stringContaining('foo') } });
    expect(rejected.headers.get('x-correlation-id')).toBeTruthy();
    expect(rejected.headers.get('warning')).toBeNull();
  });
});
