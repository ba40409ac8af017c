import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { usePlatform, type TestPlatform } from '../support/platform';
import { itemsUnder, orgSessionIds, usePlatformAndTable, type PlatformTable } from '../support/store';

const at = (iso: string) => Date.parse(iso) * 1000;

describe('JSONL import (POST /admin/v1/apps/{appId}/imports)', () => {
  let p: TestPlatform;
  let t: PlatformTable;
  usePlatformAndTable({}, (started) => ({ p, t } = started));

  const importJsonl = (appId: string, lines: unknown[]) =>
    p.call('POST', `/admin/v1/apps/${appId}/imports`, {
      token: p.adminToken,
      headers: { 'Content-Type': 'application/x-ndjson' },
      body: `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`,
    });

  function records() {
    const ids = { anon: randomUUID(), known: randomUUID(), empty: randomUUID() };
    const lines = [
      {
        session: { id: ids.anon, title: 'Anonymous chat', startedAt: '2026-01-10T09:00:00.123456Z' },
        consumer: { email: null },
        messages: [
          { role: 'user', content: 'hello', createdAt: '2026-01-10T09:00:01Z' },
          {
            role: 'assistant',
            content: 'hi there',
            createdAt: '2026-01-10T09:00:02.5+00:00',
            tools: [{ name: 'search', type: 'custom_component', success: true }],
          },
        ],
      },
      {
        session: {
          id: ids.known,
          title: 'Known chat',
          source: 'APP',
          externalId: 'web:42',
          startedAt: '2026-01-11T10:00:00+01:00',
          queryParams: [
            { name: 'utm_source', value: 'mail' },
            { name: 'bt', value: '1' },
            { name: 'session', value: 'x' },
            { name: 'share', value: 'y' },
          ],
        },
        consumer: { email: 'Known@Example.com' },
        messages: [{ id: 'm-1', role: 'user', content: 'question', createdAt: '2026-01-11T09:30:00Z' }],
      },
      { session: { id: ids.empty, startedAt: '2026-01-12T00:00:00Z' } },
    ];
    return { ids, lines };
  }

  it('creates sessions, messages and consumers', async () => {
    const f = await p.fixture();
    const { ids, lines } = records();
    const before = Date.now() * 1000;
    const res = await importJsonl(f.appId, lines);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ data: { imported: 3, sessionIds: [ids.anon, ids.known, ids.empty] } });

    const anon = await p.deps.sessions.get(ids.anon);
    expect(anon).toMatchObject({ orgId: f.orgId, appId: f.appId, title: 'Anonymous chat', source: 'APP', consumerEmail: null, externalId: null });
    expect(anon!.startedAtUs).toBe(at('2026-01-10T09:00:00.123Z'));
    expect(anon!.lastMessageAtUs).toBe(at('2026-01-10T09:00:02.500Z'));
    // Touched at import time, so an export picks it up above any earlier checkpoint.
    expect(anon!.touchedAtUs).toBeGreaterThanOrEqual(before);
    const anonConsumer = await p.deps.consumers.get(anon!.consumerId!);
    expect(anonConsumer).toMatchObject({ email: null, appId: f.appId, orgId: f.orgId });
    const anonMessages = await p.deps.sessions.listMessages(ids.anon);
    expect(anonMessages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'hello'],
      ['assistant', 'hi there'],
    ]);
    expect(anonMessages[1]!.tools).toEqual([{ name: 'search', type: 'custom_component', success: true }]);

    const known = await p.deps.sessions.get(ids.known);
    expect(known!.startedAtUs).toBe(at('2026-01-11T09:00:00Z'));
    expect(known!.externalId).toBe('web:42');
    expect(known!.queryParams).toEqual([{ name: 'utm_source', value: 'mail' }]);
    expect(known!.consumerEmail).toBe('Known@Example.com');
    expect((await p.deps.consumers.findByEmail(f.appId, 'known@example.com'))?.id).toBe(known!.consumerId);
    expect((await p.deps.sessions.listMessages(ids.known)).map((m) => m.id)).toEqual(['m-1']);

    const empty = await p.deps.sessions.get(ids.empty);
    expect(empty).toMatchObject({ consumerId: null, lastMessageAtUs: null, title: '', source: 'APP', queryParams: [] });

    expect((await orgSessionIds(t, f.orgId)).sort()).toEqual([ids.anon, ids.known, ids.empty].sort());
    expect(await p.deps.consumers.listByApp(f.appId, 100)).toHaveLength(2);
  });

  it('is idempotent when the same session ids are imported again', async () => {
    const f = await p.fixture();
    const { ids, lines } = records();
    expect((await importJsonl(f.appId, lines)).status).toBe(201);
    const snapshot = async () => ({
      sessions: await Promise.all(Object.values(ids).map(async (id) => ({ ...(await p.deps.sessions.get(id)), touchedAtUs: 0 }))),
      messages: await Promise.all(Object.values(ids).map((id) => p.deps.sessions.listMessages(id))),
      items: await Promise.all(Object.values(ids).map(async (id) => (await itemsUnder(t, `SESSION#${id}`)).length)),
      consumers: (await p.deps.consumers.listByApp(f.appId, 100)).map((c) => c.id).sort(),
      orgSessions: (await orgSessionIds(t, f.orgId)).sort(),
    });
    const first = await snapshot();

    const again = await importJsonl(f.appId, lines);
    expect(again.status, again.text).toBe(201);
    expect(again.body.data.sessionIds).toEqual([ids.anon, ids.known, ids.empty]);
    const second = await snapshot();
    expect(second).toEqual(first);
    expect(second.consumers).toHaveLength(2);
  });

  it('rejects the whole import with 400 naming the bad line, and writes nothing', async () => {
    const f = await p.fixture();
    const good1 = {
      session: { id: randomUUID(), startedAt: '2026-01-01T00:00:00Z' },
      consumer: { email: 'first@example.com' },
      messages: [{ role: 'user', content: 'x', createdAt: '2026-01-01T00:00:01Z' }],
    };
    const good3 = { session: { id: randomUUID(), startedAt: '2026-01-01T00:00:00Z' }, consumer: { email: null } };
    const cases: [unknown[], RegExp][] = [
      [[good1, { session: { startedAt: 'not a time' } }, good3], /^Invalid line 2: session\.startedAt: /],
      [[good1, '', good3, '{"session":'], /^Invalid line 4: not JSON/],
      [
        [good1, good3, { session: { startedAt: '2026-01-01T00:00:00Z' }, messages: [{ role: 'robot', content: '', createdAt: '2026-01-01T00:00:00Z' }] }],
        /^Invalid line 3: messages\.0\.role: /,
      ],
    ];
    for (const [lines, message] of cases) {
      const res = await importJsonl(f.appId, lines);
      expect(res.status, res.text).toBe(400);
      expect(res.body).toEqual({ error: { code: 'bad_request', message: expect.stringMatching(message) } });
    }
    for (const id of [good1.session.id, good3.session.id]) {
      expect(await p.deps.sessions.get(id)).toBeUndefined();
      expect(await itemsUnder(t, `SESSION#${id}`)).toEqual([]);
    }
    expect(await p.deps.consumers.listByApp(f.appId, 100)).toEqual([]);
    expect(await p.deps.consumers.findByEmail(f.appId, 'first@example.com')).toBeUndefined();
    expect(await orgSessionIds(t, f.orgId)).toEqual([]);
  });

  it('reuses one consumer for one email within and across imports', async () => {
    const f = await p.fixture();
    const line = () => ({ session: { startedAt: '2026-02-01T00:00:00Z' }, consumer: { email: 'same@example.com' } });
    const a = await importJsonl(f.appId, [line(), line()]);
    const b = await importJsonl(f.appId, [{ ...line(), consumer: { email: 'SAME@example.com' } }]);
    const ids = [...a.body.data.sessionIds, ...b.body.data.sessionIds] as string[];
    const consumers = new Set(await Promise.all(ids.map(async (id) => (await p.deps.sessions.get(id))!.consumerId)));
    expect(consumers.size).toBe(1);
    expect(await p.deps.consumers.listByApp(f.appId, 100)).toHaveLength(1);
  });

  it('stores no messages for an app with Zero Data Retention', async () => {
    const f = await p.fixture();
    await p.admin('PATCH', `/apps/${f.appId}`, { settings: { zeroDataRetention: true } });
    const id = randomUUID();
    const res = await importJsonl(f.appId, [
      { session: { id, startedAt: '2026-01-01T00:00:00Z' }, messages: [{ role: 'user', content: 'secret', createdAt: '2026-01-01T00:00:01Z' }] },
    ]);
    expect(res.status).toBe(201);
    expect(await p.deps.sessions.listMessages(id)).toEqual([]);
    expect((await p.deps.sessions.get(id))!.lastMessageAtUs).toBeNull();
  });

  it('refuses to import a session id that belongs to another app', async () => {
    const a = await p.fixture();
    const b = await p.fixture();
    const id = randomUUID();
    expect((await importJsonl(a.appId, [{ session: { id, startedAt: '2026-01-01T00:00:00Z' } }])).status).toBe(201);
    const res = await importJsonl(b.appId, [{ session: { id, startedAt: '2026-01-01T00:00:00Z' } }]);
    expect(res.status).toBe(404);
    expect((await p.deps.sessions.get(id))!.appId).toBe(a.appId);
  });
});

describe('re-importing a deleted session', () => {
  let p: TestPlatform;
  usePlatform({}, (started) => (p = started));

  it('is refused with 409 and writes nothing, so a published tombstone is never contradicted', async () => {
    const f = await p.fixture();
    const deletedId = randomUUID();
    const freshId = randomUUID();
    const line = (id: string) => JSON.stringify({ session: { id, title: 't', startedAt: '2026-01-01T00:00:00Z' }, consumer: null, messages: [] });
    const send = (ids: string[]) =>
      p.call('POST', `/admin/v1/apps/${f.appId}/imports`, {
        token: p.adminToken,
        headers: { 'Content-Type': 'application/x-ndjson' },
        body: ids.map(line).join('\n'),
      });
    expect((await send([deletedId])).status).toBe(201);
    expect((await p.admin('DELETE', `/sessions/${deletedId}`)).status).toBe(200);

    const again = await send([freshId, deletedId]);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    expect(await p.deps.sessions.get(deletedId)).toBeUndefined();
    // The refusal came before any write: the first line was not imported either.
    expect(await p.deps.sessions.get(freshId)).toBeUndefined();
  });
});
