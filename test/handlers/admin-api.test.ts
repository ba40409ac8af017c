import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../functions/routes';
import { startTestPlatform, type TestPlatform, type TestResponse } from '../support/platform';

const NDJSON = { 'Content-Type': 'application/x-ndjson' };

function expectError(res: TestResponse, status: number, code: string, context: string): void {
  expect(res.status, `${context}: ${res.text}`).toBe(status);
  expect(res.body, context).toEqual({ error: { code, message: expect.any(String) } });
  expect(res.body.error.message.length, context).toBeGreaterThan(0);
}

describe('admin API', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform();
  });
  afterAll(() => p.stop());

  /** A live org with an app, a key, a consumer and a session: the 401 checks aim at real resources. */
  async function world() {
    const f = await p.fixture();
    const sessionId = randomUUID();
    const imported = await p.call('POST', `/admin/v1/apps/${f.appId}/imports`, {
      token: p.adminToken,
      headers: NDJSON,
      body: JSON.stringify({
        session: { id: sessionId, startedAt: '2026-01-01T00:00:00Z' },
        consumer: { email: 'a@example.com' },
        messages: [{ role: 'user', content: 'hi', createdAt: '2026-01-01T00:00:01Z' }],
      }),
    });
    expect(imported.status, imported.text).toBe(201);
    const consumerId = (await p.deps.sessions.get(sessionId))!.consumerId!;
    return { ...f, sessionId, consumerId };
  }

  describe('authentication', () => {
    const iamRoutes = ROUTES.filter((r) => r.auth === 'iam');

    it('covers every admin route of the route table', () => {
      expect(iamRoutes.length).toBeGreaterThanOrEqual(13);
      expect(iamRoutes.every((r) => r.path.startsWith('/admin/v1/'))).toBe(true);
    });

    it('rejects a missing, wrong or non-Bearer admin token with 401 on every route, and does nothing', async () => {
      const w = await world();
      const params: Record<string, string> = {
        orgId: w.orgId,
        appId: w.appId,
        keyId: w.orgKeyId,
        sessionId: w.sessionId,
        consumerId: w.consumerId,
        jobName: 'retention-expiry',
      };
      const bodies: Record<string, unknown> = {
        adminOrgCreate: { name: 'Sneaky', plan: 'paid' },
        adminOrgKeyCreate: { scopes: ['apps:read'] },
        adminAppCreate: { name: 'Sneaky' },
        adminAppUpdate: { name: 'Renamed' },
        adminChatKeyCreate: {},
        adminImportCreate: JSON.stringify({ session: { startedAt: '2026-01-01T00:00:00Z' } }),
      };
      const auths: (Record<string, string> | undefined)[] = [
        undefined,
        { Authorization: 'Bearer adm_wrong' },
        { Authorization: `Bearer ${p.adminToken}x` },
        { Authorization: `Basic ${p.adminToken}` },
        { Authorization: p.adminToken },
        { Authorization: 'Bearer' },
      ];
      for (const route of iamRoutes) {
        const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? 'x');
        for (const headers of auths) {
          const body = bodies[route.id];
          const res = await p.call(route.method, path, { ...(headers ? { headers } : {}), ...(body !== undefined ? { body } : {}) });
          expectError(res, 401, 'unauthorized', `${route.method} ${route.path} with ${JSON.stringify(headers)}`);
          expect(res.headers.get('x-correlation-id')).toBeTruthy();
        }
      }
      // Nothing happened: the key still works, the app is still listed, the session still exists.
      const apps = await p.call('GET', '/api/v1/org/apps', { token: w.orgKey });
      expect(apps.status).toBe(200);
      expect(apps.body.data.map((a: { id: string; name: string }) => [a.id, a.name])).toEqual([[w.appId, 'Test App']]);
      expect(await p.deps.sessions.get(w.sessionId)).toBeDefined();
      expect(await p.deps.consumers.get(w.consumerId)).toBeDefined();
    });

    it('does not accept an org key as the admin token', async () => {
      const f = await p.fixture();
      const res = await p.call('GET', `/admin/v1/orgs/${f.orgId}`, { token: f.orgKey });
      expectError(res, 401, 'unauthorized', 'org key on admin route');
    });
  });

  describe('creation', () => {
    it('creates an org (201) and shows it without any key material', async () => {
      const org = await p.admin('POST', '/orgs', { name: '  Acme  ', plan: 'free' });
      expect(org.status).toBe(201);
      expect(org.body.data).toEqual({ id: expect.any(String), name: 'Acme', plan: 'free', createdAt: expect.any(String), updatedAt: expect.any(String) });
      const got = await p.admin('GET', `/orgs/${org.body.data.id}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(org.body);
    });

    it('creates an app (201) with an appNameId `<slug>-<number>`', async () => {
      const f = await p.fixture();
      const app = await p.admin('POST', `/orgs/${f.orgId}/apps`, { name: 'Help Desk Bot' });
      expect(app.status).toBe(201);
      expect(app.body.data.slug).toBe('help-desk-bot');
      expect(app.body.data.appNameId).toMatch(/^help-desk-bot-\d+$/);
      const custom = await p.admin('POST', `/orgs/${f.orgId}/apps`, { name: 'Whatever', slug: 'my-slug', settings: { zeroDataRetention: true } });
      expect(custom.status).toBe(201);
      expect(custom.body.data.appNameId).toMatch(/^my-slug-\d+$/);
      expect(custom.body.data.settings.zeroDataRetention).toBe(true);
    });

    it('shows an org key once: in the 201 of its creation, never in GETs or the revocation', async () => {
      const f = await p.fixture();
      const created = await p.admin('POST', `/orgs/${f.orgId}/keys`, { scopes: ['apps:read', 'apps:read', 'usage:read'], name: 'warehouse' });
      expect(created.status).toBe(201);
      const key: string = created.body.data.key;
      expect(key).toMatch(/^svc_org_[A-Za-z0-9]{40}$/);
      expect(created.body.data.scopes).toEqual(['apps:read', 'usage:read']);
      expect(created.body.data.keyPrefix).toBeUndefined();

      const chat = await p.admin('POST', `/apps/${f.appId}/chat-keys`, { name: 'web' });
      expect(chat.status).toBe(201);
      const chatKey: string = chat.body.data.key;
      expect(chatKey).toMatch(/^svc_chat_[A-Za-z0-9]{40}$/);
      expect(chat.body.data.appId).toBe(f.appId);

      const secret = key.slice('svc_org_'.length);
      const chatSecret = chatKey.slice('svc_chat_'.length);
      for (const res of [await p.admin('GET', `/orgs/${f.orgId}`), await p.admin('GET', `/apps/${f.appId}`)]) {
        expect(res.status).toBe(200);
        expect(res.text).not.toContain(secret);
        expect(res.text).not.toContain(chatSecret);
      }
      const revoked = await p.admin('DELETE', `/keys/${created.body.data.id}`);
      expect(revoked.status).toBe(200);
      expect(revoked.text).not.toContain(secret);
      expect(revoked.body.data.key).toBeUndefined();
      expect(revoked.body.data.keyPrefix).toBe(key.slice(0, 'svc_org_'.length + 4));
      // Revoking again is harmless and keeps the first revocation time.
      const again = await p.admin('DELETE', `/keys/${created.body.data.id}`);
      expect(again.status).toBe(200);
      expect(again.body.data.revokedAt).toBe(revoked.body.data.revokedAt);
    });

    it('creates a chat key with no body at all', async () => {
      const f = await p.fixture();
      const res = await p.call('POST', `/admin/v1/apps/${f.appId}/chat-keys`, { token: p.adminToken });
      expect(res.status).toBe(201);
      expect(res.body.data.key).toMatch(/^svc_chat_/);
    });
  });

  describe('invalid input', () => {
    it('answers every invalid body with 400 bad_request, never 500', async () => {
      const f = await p.fixture();
      const cases: [method: string, path: string, body: string | undefined][] = [];
      const add = (method: string, path: string, bodies: (string | undefined)[]) => {
        for (const b of bodies) cases.push([method, path, b]);
      };
      const common = [undefined, '', '{', 'not json', '[]', '[1]', 'null', '"text"', '42', 'true'];
      add('POST', '/orgs', [
        ...common,
        '{}',
        JSON.stringify({ name: 'x' }),
        JSON.stringify({ name: 'x', plan: 'gold' }),
        JSON.stringify({ name: '', plan: 'paid' }),
        JSON.stringify({ name: '   ', plan: 'paid' }),
        JSON.stringify({ name: 5, plan: 'paid' }),
        JSON.stringify({ name: 'x'.repeat(201), plan: 'paid' }),
        JSON.stringify({ name: 'x', plan: 'paid', extra: 1 }),
      ]);
      add('POST', `/orgs/${f.orgId}/keys`, [
        ...common,
        '{}',
        JSON.stringify({ scopes: [] }),
        JSON.stringify({ scopes: 'apps:read' }),
        JSON.stringify({ scopes: ['apps:write'] }),
        JSON.stringify({ scopes: ['apps:read'], expiresAt: 'tomorrow' }),
        JSON.stringify({ scopes: ['apps:read'], expiresAt: '2026-02-30T00:00:00Z' }),
        JSON.stringify({ scopes: ['apps:read'], expiresAt: '2020-01-01T00:00:00Z' }),
        JSON.stringify({ scopes: ['apps:read'], expiresAt: 123 }),
        JSON.stringify({ scopes: ['apps:read'], name: '' }),
        JSON.stringify({ scopes: ['apps:read'], orgId: 'other' }),
      ]);
      add('POST', `/orgs/${f.orgId}/apps`, [
        ...common,
        '{}',
        JSON.stringify({ name: '' }),
        JSON.stringify({ name: '   ' }),
        JSON.stringify({ name: 'x', slug: 'Bad Slug' }),
        JSON.stringify({ name: 'x', slug: 'trailing-' }),
        JSON.stringify({ name: 'x', slug: '' }),
        JSON.stringify({ name: 'x', settings: { model: 5 } }),
        JSON.stringify({ name: 'x', settings: { unknown: true } }),
        JSON.stringify({ name: 'x', settings: { imageInput: { maxPerConversation: -1 } } }),
        JSON.stringify({ name: 'x', settings: { mcpConnections: [{ name: 'a', url: 'not a url' }] } }),
        JSON.stringify({ name: 'x', settings: null }),
        JSON.stringify({ name: 'x', appNameId: 'chosen-1' }),
      ]);
      add('PATCH', `/apps/${f.appId}`, [
        ...common,
        JSON.stringify({ name: '' }),
        JSON.stringify({ name: '  ' }),
        JSON.stringify({ slug: 'new-slug' }),
        JSON.stringify({ settings: { zeroDataRetention: 'yes' } }),
        JSON.stringify({ settings: { imageInput: { enabled: 1 } } }),
        JSON.stringify({ settings: { mcpConnections: 'none' } }),
        // A header named __proto__ would vanish from the stored record: refused, never silently dropped.
        `{"settings":{"mcpConnections":[{"name":"a","url":"https://mcp.example.com/mcp","headers":{"__proto__":"x"}}]}}`,
      ]);
      add('POST', `/apps/${f.appId}/chat-keys`, [
        '{',
        '[]',
        'null',
        JSON.stringify({ expiresAt: 'soon' }),
        JSON.stringify({ scopes: ['apps:read'] }),
        JSON.stringify({ name: '' }),
      ]);
      const line = (o: unknown) => JSON.stringify(o);
      add('POST', `/apps/${f.appId}/imports`, [
        undefined,
        '',
        '\n\n',
        'not json',
        '[]',
        line({}),
        line({ session: {} }),
        line({ session: { startedAt: 'yesterday' } }),
        line({ session: { id: 'not-a-uuid', startedAt: '2026-01-01T00:00:00Z' } }),
        line({ session: { startedAt: '2026-01-01T00:00:00Z', extra: 1 } }),
        line({ session: { startedAt: '2026-01-01T00:00:00Z' }, consumer: { email: 'not-an-email' } }),
        line({ session: { startedAt: '2026-01-01T00:00:00Z' }, messages: [{ role: 'robot', content: 'x', createdAt: '2026-01-01T00:00:00Z' }] }),
        line({ session: { startedAt: '2026-01-01T00:00:00Z' }, messages: [{ role: 'user', content: 'x' }] }),
        line({ session: { startedAt: '2026-01-01T00:00:00Z' }, messages: 'x' }),
        Array.from({ length: 1001 }, () => line({ session: { startedAt: '2026-01-01T00:00:00Z' } })).join('\n'),
      ]);
      add('POST', '/jobs/no-such-job/runs', [undefined, '{}']);

      for (const [method, path, body] of cases) {
        const res = await p.call(method, `/admin/v1${path}`, {
          token: p.adminToken,
          ...(body !== undefined ? { body, headers: path.endsWith('/imports') ? NDJSON : { 'Content-Type': 'application/json' } } : {}),
        });
        expectError(res, 400, 'bad_request', `${method} ${path} ${JSON.stringify(body)?.slice(0, 120)}`);
      }
      // None of the rejected requests wrote anything.
      expect((await p.call('GET', '/api/v1/org/apps', { token: f.orgKey })).body.data).toHaveLength(1);
      const app = await p.admin('GET', `/apps/${f.appId}`);
      expect(app.body.data.name).toBe('Test App');
      expect((await p.deps.consumers.listByApp(f.appId, 10)).length).toBe(0);
    });

    it('answers unknown ids with 404 not_found', async () => {
      const f = await p.fixture();
      const id = randomUUID();
      const jsonl = JSON.stringify({ session: { startedAt: '2026-01-01T00:00:00Z' } });
      const cases: [string, string, unknown?][] = [
        ['GET', `/orgs/${id}`],
        ['GET', '/orgs/not-even-a-uuid'],
        ['POST', `/orgs/${id}/keys`, { scopes: ['apps:read'] }],
        ['POST', `/orgs/${id}/apps`, { name: 'x' }],
        ['DELETE', `/keys/${id}`],
        ['DELETE', `/keys/${f.appId}`],
        ['GET', `/apps/${id}`],
        ['GET', `/apps/${f.orgId}`],
        ['PATCH', `/apps/${id}`, { name: 'x' }],
        ['DELETE', `/apps/${id}`],
        ['POST', `/apps/${id}/chat-keys`, {}],
        ['POST', `/apps/${id}/imports`, jsonl],
        ['DELETE', `/sessions/${id}`],
        ['DELETE', `/consumers/${id}`],
      ];
      for (const [method, path, body] of cases) {
        const res = await p.call(method, `/admin/v1${path}`, {
          token: p.adminToken,
          ...(body !== undefined ? { body, ...(path.endsWith('/imports') ? { headers: NDJSON } : {}) } : {}),
        });
        expectError(res, 404, 'not_found', `${method} ${path}`);
      }
    });

    it('treats a deleted app as gone for reads, updates, keys and imports', async () => {
      const f = await p.fixture();
      expect((await p.admin('DELETE', `/apps/${f.appId}`)).status).toBe(202);
      expectError(await p.admin('GET', `/apps/${f.appId}`), 404, 'not_found', 'get deleted');
      expectError(await p.admin('PATCH', `/apps/${f.appId}`, { name: 'back' }), 404, 'not_found', 'patch deleted');
      expectError(await p.admin('POST', `/apps/${f.appId}/chat-keys`, {}), 404, 'not_found', 'chat key deleted');
      const imp = await p.call('POST', `/admin/v1/apps/${f.appId}/imports`, {
        token: p.adminToken,
        headers: NDJSON,
        body: JSON.stringify({ session: { startedAt: '2026-01-01T00:00:00Z' } }),
      });
      expectError(imp, 404, 'not_found', 'import deleted');
      await p.drainQueues();
    });
  });
});

describe('path ids', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform();
  });
  afterAll(() => p.stop());

  it.each([
    ['GET', `/orgs/${'x'.repeat(3000)}`, 'Org not found'],
    ['DELETE', `/keys/${'k'.repeat(3000)}`, 'Key not found'],
    ['GET', '/apps/not-a-uuid', 'App not found'],
    ['DELETE', '/sessions/123', 'Session not found'],
  ])('%s %s (not a UUID) is a 404, never a 500', async (method, path, message) => {
    const res = await p.admin(method, path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 'not_found', message } });
  });
});
