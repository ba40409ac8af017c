import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHORIZER_CACHE_TTL_SECONDS } from '../../functions/kernel/http/api-gateway-contract';
import { TestClock } from '../support/clock';
import { failCommands } from '../support/export-truth';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { tableOf } from '../support/store';

/**
 * The gateway in front of the key routes (functions/kernel/http/api-gateway-contract.ts), as the local server runs it: the key
 * authorizer's answer is cached per Authorization value, revocation flushes the cache, a cached grant
 * never outlives its key's expiry, and denials come in each area's error shape.
 */
describe('the key gateway', () => {
  let p: TestPlatform;
  const clock = new TestClock('2026-11-02T10:00:00Z');
  beforeAll(async () => {
    p = await startTestPlatform({ clock });
  });
  afterAll(() => p.stop());

  const apps = (token: string, headers: Record<string, string> = {}) => p.call('GET', '/api/v1/org/apps', { token, headers });
  /** Fails every read of a credential item (lookup by hash), as an outage of the key store would. */
  const failCredentialReads = () =>
    failCommands(
      tableOf(p),
      (command, input) =>
        (command === 'GetCommand' || command === 'GetItemCommand') && String((input.Key as { pk?: unknown } | undefined)?.pk ?? '').startsWith('CRED#'),
    );

  it('answers from the cached grant without reading the key again, and a never-seen key meets the outage', async () => {
    const f = await p.fixture();
    expect((await apps(f.orgKey)).status).toBe(200);
    const other = await p.admin('POST', `/orgs/${f.orgId}/keys`, { scopes: ['apps:read'] });
    const fault = failCredentialReads();
    try {
      const cached = await apps(f.orgKey);
      expect(cached.status).toBe(200);
      const fresh = await apps(other.body.data.key, { 'X-Correlation-ID': 'outage-1' });
      expect(fresh.status).toBe(500);
      expect(fresh.body).toEqual({ error: { code: 'unavailable', message: 'Internal server error' } });
      expect(fault.fired).toBeGreaterThan(0);
    } finally {
      fault.remove();
    }
    // An outage is not cached as a denial: the key works once the store is back.
    expect((await apps(other.body.data.key)).status).toBe(200);
  });

  it('refuses a revoked key at once although its grant was cached', async () => {
    const f = await p.fixture();
    expect((await apps(f.orgKey)).status).toBe(200);
    expect((await p.admin('DELETE', `/keys/${f.orgKeyId}`)).status).toBe(200);
    const res = await apps(f.orgKey);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: 'unauthorized', message: 'Invalid API key' } });
  });

  it('refuses an expired key whose grant was cached before it expired', async () => {
    const f = await p.fixture();
    const expiresAt = new Date(clock.nowUs() / 1000 + 60_000).toISOString();
    const key = await p.admin('POST', `/orgs/${f.orgId}/keys`, { scopes: ['apps:read'], expiresAt });
    expect((await apps(key.body.data.key)).status).toBe(200);
    clock.advance(61_000);
    expect(61).toBeLessThan(AUTHORIZER_CACHE_TTL_SECONDS); // still inside the cache's lifetime
    const res = await apps(key.body.data.key);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: 'unauthorized', message: 'API key has expired' } });
  });

  it("answers a missing or denied key in the chat area's own shape, echoing the correlation id", async () => {
    const f = await p.fixture();
    const post = (headers: Record<string, string>) =>
      p.call('POST', '/api/v1/chat/completions', {
        headers: { 'Content-Type': 'application/json', ...headers },
        body: { model: f.appNameId, messages: [{ role: 'user', content: 'hi' }] },
      });
    const missing = await post({ 'X-Correlation-ID': 'chat-missing' });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ error: 'Missing API key: send Authorization: Bearer <API_KEY>' });
    expect(missing.headers.get('x-correlation-id')).toBe('chat-missing');
    const denied = await post({ Authorization: `Bearer ${f.orgKey}`, 'X-Correlation-ID': 'chat-denied' });
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({ error: 'Invalid API key' });
    expect(denied.headers.get('x-correlation-id')).toBe('chat-denied');
  });

  it('refuses a chat key of an app deleted after its grant was cached', async () => {
    const f = await p.fixture();
    const chat = await p.admin('POST', `/apps/${f.appId}/chat-keys`, {});
    const post = () =>
      p.call('POST', '/api/v1/chat/completions', {
        token: chat.body.data.key,
        headers: { 'Content-Type': 'application/json' },
        body: { model: f.appNameId, messages: [{ role: 'user', content: 'hi' }] },
      });
    expect((await post()).status).toBe(200);
    expect((await p.admin('DELETE', `/apps/${f.appId}`)).status).toBeLessThan(300);
    const res = await post();
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Invalid API key' });
  });
});
