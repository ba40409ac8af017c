import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../support/clock';
import { failCommands } from '../support/export-truth';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { tableOf } from '../support/store';

/**
 * The local gateway in front of the key routes, per area, over HTTP: the cache is keyed by the exact
 * Authorization value, an authorizer failure is a 500 in the area's shape that nothing caches, and a
 * key refused by the authorizer (never cached) reads the same as one refused by the function (cached).
 * test/handlers/key-gateway.test.ts covers revocation, a cached expiry and a deleted app.
 */
describe('the key gateway, area by area', () => {
  let p: TestPlatform;
  const clock = new TestClock('2026-11-02T10:00:00Z');
  beforeAll(async () => {
    p = await startTestPlatform({ clock });
  });
  afterAll(() => p.stop());

  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  const apps = (headers: Record<string, string>) => p.call('GET', '/api/v1/org/apps', { headers });
  const chat = (appNameId: string, headers: Record<string, string>) =>
    p.call('POST', '/api/v1/chat/completions', {
      headers: { 'Content-Type': 'application/json', ...headers },
      body: { model: appNameId, messages: [{ role: 'user', content: 'hi' }] },
    });
  /** Every lookup of a credential by hash fails (the document client's GetCommand reaches the middleware as GetItemCommand). */
  const credentialStoreDown = () =>
    failCommands(
      tableOf(p),
      (command, input) => command === 'GetItemCommand' && String((input.Key as { pk?: unknown } | undefined)?.pk ?? '').startsWith('CRED#'),
    );

  it('caches per Authorization value: the same key under another spelling of the scheme meets the outage', async () => {
    const f = await p.fixture();
    expect((await apps({ Authorization: `Bearer ${f.orgKey}` })).status).toBe(200);
    const fault = credentialStoreDown();
    try {
      expect((await apps({ Authorization: `Bearer ${f.orgKey}` })).status).toBe(200);
      expect(fault.fired).toBe(0);
      const res = await apps({ Authorization: `bearer ${f.orgKey}`, 'X-Correlation-ID': 'outage-export' });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: { code: 'unavailable', message: 'Internal server error' } });
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('x-correlation-id')).toBe('outage-export');
      expect(res.headers.get('retry-after')).toBeNull();
      expect(fault.fired).toBe(1);
    } finally {
      fault.remove();
    }
    // The failure was not cached: the same header value is authorized once the store is back.
    expect((await apps({ Authorization: `bearer ${f.orgKey}` })).status).toBe(200);
  });

  it("answers an authorizer failure on the chat API in the chat area's shape", async () => {
    const f = await p.fixture();
    const key = await p.admin('POST', `/apps/${f.appId}/chat-keys`, {});
    expect(key.status).toBe(201);
    const fault = credentialStoreDown();
    try {
      const res = await chat(f.appNameId, { Authorization: `Bearer ${key.body.data.key}`, 'X-Correlation-ID': 'outage-chat' });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'Internal server error' });
      expect(res.headers.get('x-correlation-id')).toBe('outage-chat');
      expect(fault.fired).toBe(1);
    } finally {
      fault.remove();
    }
    expect((await chat(f.appNameId, { Authorization: `Bearer ${key.body.data.key}` })).status).toBe(200);
  });

  it('answers a missing, non-Bearer or foreign key in area A’s shape, echoing or making up a correlation id', async () => {
    const f = await p.fixture();
    const missing = await apps({ 'X-Correlation-ID': 'no-key-1' });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ error: { code: 'unauthorized', message: 'Missing API key: send Authorization: Bearer <ORG_API_KEY>' } });
    expect(missing.headers.get('x-correlation-id')).toBe('no-key-1');
    const generated = await apps({});
    expect(generated.status).toBe(401);
    expect(generated.headers.get('x-correlation-id')).toMatch(UUID);
    const basic = await apps({ Authorization: 'Basic dXNlcjpwYXNz' });
    expect(basic.status).toBe(401);
    expect(basic.body).toEqual({ error: { code: 'unauthorized', message: 'Missing API key: send Authorization: Bearer <ORG_API_KEY>' } });
    const chatKey = await p.admin('POST', `/apps/${f.appId}/chat-keys`, {});
    const foreign = await apps({ Authorization: `Bearer ${chatKey.body.data.key}` });
    expect(foreign.status).toBe(401);
    expect(foreign.body).toEqual({ error: { code: 'unauthorized', message: 'Invalid API key' } });
  });

  it('refuses an expired key the same way whether the authorizer or the function notices', async () => {
    const f = await p.fixture();
    const expiresAt = new Date(clock.nowUs() / 1000 + 30_000).toISOString();
    const cachedKey = await p.admin('POST', `/orgs/${f.orgId}/keys`, { scopes: ['apps:read'], expiresAt });
    const freshKey = await p.admin('POST', `/orgs/${f.orgId}/keys`, { scopes: ['apps:read'], expiresAt });
    const cachedChat = await p.admin('POST', `/apps/${f.appId}/chat-keys`, { expiresAt });
    const freshChat = await p.admin('POST', `/apps/${f.appId}/chat-keys`, { expiresAt });
    for (const k of [cachedKey, freshKey, cachedChat, freshChat]) expect(k.status).toBe(201);
    expect((await apps({ Authorization: `Bearer ${cachedKey.body.data.key}` })).status).toBe(200);
    expect((await chat(f.appNameId, { Authorization: `Bearer ${cachedChat.body.data.key}` })).status).toBe(200);
    clock.advance(31_000);

    const exportAnswer = { error: { code: 'unauthorized', message: 'API key has expired' } };
    for (const key of [cachedKey, freshKey]) {
      const res = await apps({ Authorization: `Bearer ${key.body.data.key}`, 'X-Correlation-ID': 'exp-export' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(exportAnswer);
      expect(res.headers.get('x-correlation-id')).toBe('exp-export');
    }
    for (const key of [cachedChat, freshChat]) {
      const res = await chat(f.appNameId, { Authorization: `Bearer ${key.body.data.key}`, 'X-Correlation-ID': 'exp-chat' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'API key has expired' });
      expect(res.headers.get('x-correlation-id')).toBe('exp-chat');
    }
  });

  it('revoking one key empties the whole cache, as FlushStageAuthorizersCache does on AWS', async () => {
    const f = await p.fixture();
    const other = await p.admin('POST', `/orgs/${f.orgId}/keys`, { scopes: ['apps:read'] });
    expect((await apps({ Authorization: `Bearer ${f.orgKey}` })).status).toBe(200);
    expect((await p.admin('DELETE', `/keys/${other.body.data.id}`)).status).toBe(200);
    const fault = credentialStoreDown();
    try {
      // The untouched key was cached before the revoke; now the authorizer is asked again.
      const res = await apps({ Authorization: `Bearer ${f.orgKey}` });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: { code: 'unavailable', message: 'Internal server error' } });
      expect(fault.fired).toBe(1);
    } finally {
      fault.remove();
    }
    expect((await apps({ Authorization: `Bearer ${f.orgKey}` })).status).toBe(200);
  });
});
