import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../support/clock';
import { startTestPlatform, type TestPlatform, type TestResponse } from '../support/platform';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The exact area A error body, and the correlation id every response carries. */
function expectError(res: TestResponse, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
  expect(res.body.error.message.length).toBeGreaterThan(0);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('x-correlation-id')).toMatch(UUID);
}

describe('GET /api/v1/org/apps: keys, scopes and tenancy', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    // After 2026-10-10, where an unknown query parameter is a 400; the clock follows real time from there.
    p = await startTestPlatform({ clock: new TestClock('2026-11-02T10:00:00Z') });
  });
  afterAll(() => p.stop());

  const list = (token?: string, headers?: Record<string, string>) =>
    p.call('GET', '/api/v1/org/apps', { ...(token ? { token } : {}), ...(headers ? { headers } : {}) });

  it('accepts a key created through the admin API at once', async () => {
    const f = await p.fixture({ scopes: ['apps:read'] });
    const key = await p.admin('POST', `/orgs/${f.orgId}/keys`, { scopes: ['apps:read'] });
    expect(key.status).toBe(201);
    const res = await list(key.body.data.key);
    expect(res.status).toBe(200);
    expect(res.body.data.map((a: { id: string }) => a.id)).toEqual([f.appId]);
  });

  it('rejects a revoked key with 401 at once', async () => {
    const f = await p.fixture({ scopes: ['apps:read'] });
    expect((await list(f.orgKey)).status).toBe(200);
    const revoked = await p.admin('DELETE', `/keys/${f.orgKeyId}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revokedAt).toMatch(/Z$/);
    expectError(await list(f.orgKey), 401, 'unauthorized');
  });

  it('answers 403 to a valid key without apps:read', async () => {
    const f = await p.fixture({ scopes: ['transcripts:read', 'usage:read', 'tombstones:read'] });
    const res = await list(f.orgKey);
    expectError(res, 403, 'forbidden');
    expect(res.body.error.message).toContain('apps:read');
  });

  it('answers 401 to a missing Authorization header', async () => {
    expectError(await list(), 401, 'unauthorized');
  });

  it('answers 401 to malformed Authorization headers, chat keys and wrong-prefix keys', async () => {
    const f = await p.fixture();
    const chat = await p.admin('POST', `/apps/${f.appId}/chat-keys`, {});
    expect(chat.status).toBe(201);
    const chatKey: string = chat.body.data.key;
    expect(chatKey.startsWith('svc_chat_')).toBe(true);
    const random = f.orgKey.slice('svc_org_'.length);
    const headers = [
      `Basic ${Buffer.from(`user:${f.orgKey}`).toString('base64')}`,
      `Basic ${f.orgKey}`,
      'Bearer',
      'Bearer ',
      f.orgKey,
      `Token ${f.orgKey}`,
      `Bearer ${f.orgKey} extra`,
      `Bearer ${chatKey}`,
      `Bearer svc_chat_${random}`,
      `Bearer acp_${random}`,
      `Bearer svc_${random}`,
      `Bearer ${random}`,
      `Bearer svc_org_${'x'.repeat(40)}`,
      `Bearer ${f.orgKey}x`,
      `Bearer ${f.orgKey.slice(0, -1)}`,
      `Bearer ${f.orgKey.toUpperCase()}`,
    ];
    for (const authorization of headers) {
      const res = await list(undefined, { Authorization: authorization });
      expect(res.status, authorization).toBe(401);
      expectError(res, 401, 'unauthorized');
    }
    // The same key, well formed, works: the rejections above are about the header, not the key.
    expect((await list(undefined, { Authorization: `Bearer ${f.orgKey}` })).status).toBe(200);
  });

  it('answers 400 to an unknown query parameter (on and after 2026-10-10)', async () => {
    const f = await p.fixture();
    for (const query of ['?foo=1', '?foo=', '?limit=10', '?foo=1&bar=2']) {
      const res = await p.call('GET', `/api/v1/org/apps${query}`, { token: f.orgKey });
      expectError(res, 400, 'bad_request');
    }
    const two = await p.call('GET', '/api/v1/org/apps?foo=1&bar=2', { token: f.orgKey });
    expect(two.body.error.message).toContain('foo');
    expect(two.body.error.message).toContain('bar');
  });

  it('never shows another org’s apps', async () => {
    const a = await p.fixture();
    const b = await p.fixture();
    const bSecond = await p.admin('POST', `/orgs/${b.orgId}/apps`, { name: 'B second' });
    const resA = await list(a.orgKey);
    const resB = await list(b.orgKey);
    expect(resA.body.data.map((x: { id: string }) => x.id)).toEqual([a.appId]);
    expect(resB.body.data.map((x: { id: string }) => x.id)).toEqual([bSecond.body.data.id, b.appId]);
  });

  it('drops a deleted app from the list at once', async () => {
    const f = await p.fixture();
    const other = await p.admin('POST', `/orgs/${f.orgId}/apps`, { name: 'Doomed' });
    expect((await list(f.orgKey)).body.data).toHaveLength(2);
    const del = await p.admin('DELETE', `/apps/${other.body.data.id}`);
    expect(del.status).toBe(202);
    const res = await list(f.orgKey);
    expect(res.body.data.map((x: { id: string }) => x.id)).toEqual([f.appId]);
  });

  it('answers an org with no apps with an empty list', async () => {
    const org = await p.admin('POST', '/orgs', { name: 'Empty', plan: 'free' });
    const key = await p.admin('POST', `/orgs/${org.body.data.id}/keys`, { scopes: ['apps:read'] });
    const res = await list(key.body.data.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [] });
  });

  it('echoes a sent X-Correlation-ID and generates one when none (or an unusable one) is sent', async () => {
    const f = await p.fixture({ scopes: ['usage:read'] });
    const ok = await p.fixture();
    const cases: [string, TestResponse][] = [
      ['200', await list(ok.orgKey, { 'X-Correlation-ID': 'req-200.a:b_c' })],
      ['401', await list(undefined, { 'X-Correlation-ID': 'req-401' })],
      ['403', await list(f.orgKey, { 'x-correlation-id': 'req-403' })],
      ['400', await p.call('GET', '/api/v1/org/apps?foo=1', { token: ok.orgKey, headers: { 'X-Correlation-ID': 'req-400' } })],
    ];
    expect(cases.map(([, r]) => r.headers.get('x-correlation-id'))).toEqual(['req-200.a:b_c', 'req-401', 'req-403', 'req-400']);

    const generated = await list(ok.orgKey);
    expect(generated.headers.get('x-correlation-id')).toMatch(UUID);
    const again = await list(ok.orgKey);
    expect(again.headers.get('x-correlation-id')).not.toBe(generated.headers.get('x-correlation-id'));
    // A value that is not a safe token (spaces, too long) is replaced, never reflected.
    for (const bad of ['has space', 'x'.repeat(129), '<script>']) {
      const res = await list(ok.orgKey, { 'X-Correlation-ID': bad });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-correlation-id')).toMatch(UUID);
    }
  });
});
