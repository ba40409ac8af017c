import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteSession } from '../../functions/app/delete-resources';
import { appendToSession, startSession } from '../../functions/app/record-session-activity';
import { tombstoneIdOf, type Tombstone, type TombstoneCause } from '../../functions/domain/tombstone';
import { TestClock } from '../support/clock';
import { ClockDriver, ISO_MS, expectError, forgedCursors, newKey, pageThrough, shownUs } from '../support/export-api';
import { seedSessions } from '../support/imports';
import { startTestPlatform, type TestPlatform, type TestResponse } from '../support/platform';

const TOMBSTONES = '/api/v1/org/tombstones';
const idsOf = (res: TestResponse): string[] => res.body.data.map((r: { id: string }) => r.id);
const desc = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);

describe('GET /api/v1/org/tombstones', () => {
  const START = '2026-11-02T10:00:00.000Z';
  const clock = new TestClock(START, false);
  const driver = new ClockDriver(clock, START);
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform({ clock, visibilityDelayMs: 0 });
  });
  afterAll(() => p.stop());

  const list = (token: string, query = '') => p.call('GET', `${TOMBSTONES}${query}`, { token });
  /** A tombstone written straight through the tombstone store, on an exact microsecond. */
  const putTombstone = (orgId: string, deletedAtUs: number, cause: TombstoneCause = 'consumer_deleted'): Promise<Tombstone> =>
    p.deps.tombstones.putOnce({
      id: tombstoneIdOf(deletedAtUs, randomBytes(6).toString('base64url').replace(/[-_]/g, 'x').slice(0, 8)),
      orgId,
      resourceType: 'session',
      resourceId: randomUUID(),
      cause,
      deletedAtUs,
    });

  it('answers 401 to a missing or invalid key and 403 to a key without tombstones:read', async () => {
    const f = await p.fixture({ scopes: ['apps:read', 'transcripts:read', 'usage:read'] });
    expectError(await p.call('GET', TOMBSTONES), 401);
    expectError(await p.call('GET', TOMBSTONES, { token: `svc_org_${'t'.repeat(43)}` }), 401);
    const forbidden = await list(f.orgKey);
    expectError(forbidden, 403);
    expect(forbidden.body.error.message).toContain('tombstones:read');
    expect((await list(await newKey(p, f.orgId, ['tombstones:read']))).status).toBe(200);
  });

  it('lists tombstones with exactly id, resource_type, resource_id, cause, deleted_at, and nothing of the content', async () => {
    const f = await p.fixture();
    const [sessionId, otherSessionId] = await seedSessions(p, f.appId, [{ email: 'gone@example.com', messages: ['2026-01-01T00:00:01Z'] }, { email: 'gone@example.com' }]);
    await p.deps.sessions.touch(sessionId!, p.deps.clock.nowUs(), undefined, { title: 'Secret title' });
    await appendToSession(p.deps, { sessionId: sessionId!, messages: [{ role: 'user', content: 'secret content' }] });
    const consumerId = (await p.deps.sessions.get(sessionId!))!.consumerId!;

    driver.stepMs(5);
    expect((await p.admin('DELETE', `/sessions/${sessionId}`)).status).toBe(200);
    driver.stepMs(5);
    expect((await p.admin('DELETE', `/consumers/${consumerId}`)).status).toBe(200);

    const res = await list(f.orgKey);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'pagination']);
    for (const row of res.body.data) {
      expect(Object.keys(row).sort()).toEqual(['cause', 'deleted_at', 'id', 'resource_id', 'resource_type']);
      expect(typeof row.id).toBe('string');
      expect(row.deleted_at).toMatch(ISO_MS);
      expect(row.cause).toBe('consumer_deleted');
    }
    // The consumer delete tombstones its remaining session, then the consumer.
    const byResource = new Map<string, any>(res.body.data.map((r: { resource_id: string }) => [r.resource_id, r]));
    expect([...byResource.keys()].sort()).toEqual([sessionId, otherSessionId, consumerId].sort());
    expect(byResource.get(sessionId!).resource_type).toBe('session');
    expect(byResource.get(otherSessionId!).resource_type).toBe('session');
    expect(byResource.get(consumerId).resource_type).toBe('consumer');
    expect(res.text).not.toContain('Secret');
    expect(res.text).not.toContain('secret');
    expect(res.text).not.toContain('@');
  });

  it('orders by deleted_at descending, then id descending', async () => {
    const f = await p.fixture();
    const sessions = [];
    for (let i = 0; i < 4; i++) sessions.push(await startSession(p.deps, { appId: f.appId }));
    const written: Tombstone[] = [];
    for (const s of [sessions[2]!, sessions[0]!, sessions[3]!, sessions[1]!]) {
      driver.stepMs(3);
      written.push(await deleteSession(p.deps, { sessionId: s.id }));
    }
    const res = await list(f.orgKey);
    expect(idsOf(res)).toEqual([...written].reverse().map((t) => t.id));
    expect(res.body.data.map((r: { resource_id: string }) => r.resource_id)).toEqual([sessions[1]!.id, sessions[3]!.id, sessions[0]!.id, sessions[2]!.id]);
  });

  it('pages an app deletion (one tombstone per session, one millisecond) exactly once each, by id descending, at page sizes 1, 2 and 7', async () => {
    const f = await p.fixture();
    const sessionIds: string[] = [];
    for (let i = 0; i < 15; i++) sessionIds.push((await startSession(p.deps, { appId: f.appId })).id);
    driver.stepMs(1000);
    const del = await p.admin('DELETE', `/apps/${f.appId}`);
    expect(del.status, del.text).toBe(202);
    await p.drainQueues();

    const all = await list(f.orgKey, '?limit=100');
    expect(all.body.data).toHaveLength(15);
    expect(new Set(all.body.data.map((r: { resource_id: string }) => r.resource_id))).toEqual(new Set(sessionIds));
    // The premise: they share one millisecond on the wire, so only the id tells them apart.
    expect(new Set(all.body.data.map((r: { deleted_at: string }) => r.deleted_at)).size).toBe(1);
    expect(all.body.data.every((r: { cause: string; resource_type: string }) => r.cause === 'app_deleted' && r.resource_type === 'session')).toBe(true);
    const expected = idsOf(all).sort(desc);
    expect(idsOf(all)).toEqual(expected);

    for (const [query, limit] of [['', 1], ['', 2], ['', 7], ['?cause=app_deleted', 2]] as const) {
      const pages = await pageThrough(p, `${TOMBSTONES}${query}`, f.orgKey, { limit });
      expect(pages.flatMap((pg) => pg.data.map((r: { id: string }) => r.id)), `${query} limit ${limit}`).toEqual(expected);
      expect(pages).toHaveLength(Math.ceil(15 / limit));
      for (const pg of pages.slice(0, -1)) expect(pg.data).toHaveLength(limit);
    }
  });

  it('pages tombstones sharing one microsecond exactly once each, by id descending', async () => {
    const f = await p.fixture();
    const tieUs = driver.msAhead(60_000) + 777;
    const written: Tombstone[] = [];
    for (let i = 0; i < 9; i++) written.push(await putTombstone(f.orgId, tieUs));
    driver.jumpTo(tieUs + 1000);
    const expected = written.map((t) => t.id).sort(desc);
    for (const limit of [1, 2, 7]) {
      const pages = await pageThrough(p, TOMBSTONES, f.orgKey, { limit });
      expect(pages.flatMap((pg) => pg.data.map((r: { id: string }) => r.id)), `limit ${limit}`).toEqual(expected);
      for (const pg of pages) for (const r of pg.data) expect(r.deleted_at).toBe(shownUs(tieUs));
    }
  });

  it('shows deleted_at floored from the stored microseconds', async () => {
    const f = await p.fixture();
    const atUs = driver.msAhead(60_000) + 999;
    await putTombstone(f.orgId, atUs);
    driver.jumpTo(atUs + 1);
    expect((await list(f.orgKey)).body.data[0].deleted_at).toBe(new Date(Math.floor(atUs / 1000)).toISOString());
  });

  it('filters by exact cause; an unrecognized well-formed cause is 200 and empty; an empty cause is 400', async () => {
    const f = await p.fixture();
    const base = driver.msAhead(60_000);
    const consumerDeleted = await putTombstone(f.orgId, base + 1, 'consumer_deleted');
    const appDeleted = [await putTombstone(f.orgId, base + 2, 'app_deleted'), await putTombstone(f.orgId, base + 3, 'app_deleted')];
    const retention = await putTombstone(f.orgId, base + 4, 'retention_expiry');
    driver.jumpTo(base + 1000);

    expect(idsOf(await list(f.orgKey, '?cause=app_deleted'))).toEqual([appDeleted[1]!.id, appDeleted[0]!.id]);
    expect(idsOf(await list(f.orgKey, '?cause=consumer_deleted'))).toEqual([consumerDeleted.id]);
    expect(idsOf(await list(f.orgKey, '?cause=retention_expiry'))).toEqual([retention.id]);
    expect(idsOf(await list(f.orgKey))).toHaveLength(4);
    for (const cause of ['app', 'app_deleted_', 'APP_DELETED', 'support_erasure', 'a_future_cause']) {
      const res = await list(f.orgKey, `?cause=${cause}`);
      expect(res.status, cause).toBe(200);
      expect(res.body.data, cause).toEqual([]);
      expect(res.body.pagination.has_more).toBe(false);
    }
    for (const query of ['?cause=', '?cause=app_deleted&cause=app_deleted']) expectError(await list(f.orgKey, query), 400, 'bad_request');
  });

  describe('limit', () => {
    let f: Awaited<ReturnType<TestPlatform['fixture']>>;
    beforeAll(async () => {
      f = await p.fixture();
      const base = driver.msAhead(60_000);
      for (let i = 0; i < 101; i++) await putTombstone(f.orgId, base + i);
      driver.jumpTo(base + 1000);
    });

    it('defaults to 50, allows 100, clamps larger integers with headers and rejects malformed values', async () => {
      const def = await list(f.orgKey);
      expect(def.body.data).toHaveLength(50);
      expect(def.body.pagination).toMatchObject({ has_more: true, limit: 50 });
      expect(def.headers.get('x-svc-limit-clamped')).toBeNull();
      const max = await list(f.orgKey, '?limit=100');
      expect(max.body.data).toHaveLength(100);
      expect(max.headers.get('warning')).toBeNull();
      for (const requested of ['150', '99999999999999999999']) {
        const res = await list(f.orgKey, `?limit=${requested}`);
        expect(res.body.data).toHaveLength(100);
        expect(res.body.pagination).toMatchObject({ has_more: true, limit: 100 });
        expect(res.headers.get('x-svc-limit-clamped')).toBe(`requested=${requested},clamped_to=100`);
        expect(res.headers.get('warning')).toMatch(/^299 - ".+"$/);
      }
      for (const value of ['abc', '', '0', '-1', '1.5']) expectError(await list(f.orgKey, `?limit=${value}`), 400, 'bad_request');
    });
  });

  it('rejects an unrecognized or repeated parameter with 400 on and after 2026-10-10', async () => {
    const f = await p.fixture();
    for (const query of ['?since=2026-01-01T00:00:00Z', '?resource_type=session', '?limit=1&limit=1']) {
      expectError(await list(f.orgKey, query), 400, 'bad_request');
    }
  });

  it('refuses damaged cursors, and cursors of another org, endpoint or cause; a retry returns the same page', async () => {
    const f = await p.fixture();
    const g = await p.fixture();
    const base = driver.msAhead(60_000);
    for (let i = 0; i < 4; i++) {
      await putTombstone(f.orgId, base + i, 'app_deleted');
      await putTombstone(g.orgId, base + i, 'app_deleted');
    }
    driver.jumpTo(base + 1000);
    const first = await list(f.orgKey, '?limit=2');
    const cursor: string = first.body.pagination.next_cursor;
    const c = encodeURIComponent(cursor);
    const second = await list(f.orgKey, `?limit=2&cursor=${c}`);
    expect(second.status).toBe(200);
    expect(idsOf(second)).not.toEqual(idsOf(first));
    // No side effects: the same request answers the same page.
    expect(await list(f.orgKey, `?limit=2&cursor=${c}`)).toMatchObject({ status: 200, body: second.body });
    expect(await list(f.orgKey, '?limit=2')).toMatchObject({ status: 200, body: first.body });

    for (const forged of forgedCursors(cursor)) {
      const res = await list(f.orgKey, `?limit=2&cursor=${encodeURIComponent(forged.value)}`);
      expect(res.status, forged.name).toBe(400);
      expectError(res, 400, 'bad_request');
    }
    const withCause = encodeURIComponent((await list(f.orgKey, '?limit=1&cause=app_deleted')).body.pagination.next_cursor);
    const usageCursor = encodeURIComponent((await p.call('GET', '/api/v1/org/usage?limit=1', { token: f.orgKey })).body.pagination.next_cursor);
    const sessionsCursor = encodeURIComponent((await p.call('GET', '/api/v1/org/sessions?limit=1', { token: f.orgKey })).body.pagination.next_cursor);
    const refused: [string, string, string][] = [
      ['another org', `?limit=2&cursor=${c}`, g.orgKey],
      ['cause added', `?limit=2&cause=app_deleted&cursor=${c}`, f.orgKey],
      ['cause changed', `?limit=2&cause=consumer_deleted&cursor=${withCause}`, f.orgKey],
      ['cause dropped', `?limit=2&cursor=${withCause}`, f.orgKey],
      ['a /usage cursor', `?limit=2&cursor=${usageCursor}`, f.orgKey],
      ['a /sessions cursor', `?limit=2&cursor=${sessionsCursor}`, f.orgKey],
    ];
    for (const [name, query, token] of refused) {
      const res = await p.call('GET', `${TOMBSTONES}${query}`, { token });
      expect(res.status, name).toBe(400);
      expectError(res, 400, 'bad_request');
    }
    expect((await list(f.orgKey, `?limit=3&cause=app_deleted&cursor=${withCause}`)).status).toBe(200);
  });
});

describe('GET /api/v1/org/tombstones: visibility delay', () => {
  const START = '2026-11-02T12:00:00.000Z';
  const clock = new TestClock(START, false);
  const driver = new ClockDriver(clock, START);
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform({ clock, visibilityDelayMs: 5000 });
  });
  afterAll(() => p.stop());

  it('hides a tombstone newer than now − VISIBILITY_DELAY_MS until the clock passes it', async () => {
    const f = await p.fixture();
    const s = await startSession(p.deps, { appId: f.appId });
    driver.stepMs(1000);
    const t = await deleteSession(p.deps, { sessionId: s.id });
    const ids = async () => idsOf(await p.call('GET', TOMBSTONES, { token: f.orgKey }));
    expect(await ids()).toEqual([]);
    driver.advance(4999);
    expect(await ids()).toEqual([]);
    driver.advance(1);
    expect(await ids()).toEqual([t.id]);
  });

  it('shows a tombstone stamped at .xxx999 µs under the lower millisecond', async () => {
    const f = await p.fixture();
    const s = await startSession(p.deps, { appId: f.appId });
    const targetUs = driver.msAhead(60_000) + 999;
    driver.jumpTo(targetUs);
    const t = await deleteSession(p.deps, { sessionId: s.id });
    expect(t.deletedAtUs).toBe(targetUs);
    driver.advance(6000);
    const res = await p.call('GET', TOMBSTONES, { token: f.orgKey });
    expect(res.body.data).toEqual([{ id: t.id, resource_type: 'session', resource_id: s.id, cause: 'consumer_deleted', deleted_at: new Date(Math.floor(targetUs / 1000)).toISOString() }]);
  });
});

describe('GET /api/v1/org/tombstones: unrecognized parameters around 2026-10-10', () => {
  const clock = new TestClock('2026-10-09T23:59:59.000Z', false);
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform({ clock, visibilityDelayMs: 0 });
  });
  afterAll(() => p.stop());

  it('answers 200 unfiltered with warning headers before the date and 400 from it', async () => {
    const f = await p.fixture();
    for (let i = 0; i < 2; i++) await deleteSession(p.deps, { sessionId: (await startSession(p.deps, { appId: f.appId })).id });
    const plain = await p.call('GET', TOMBSTONES, { token: f.orgKey });
    expect(plain.body.data).toHaveLength(2);

    const legacy = await p.call('GET', `${TOMBSTONES}?resource_type=consumer&since=2099-01-01T00:00:00Z`, { token: f.orgKey });
    expect(legacy.status, legacy.text).toBe(200);
    expect(legacy.body.data).toEqual(plain.body.data);
    expect(legacy.headers.get('x-svc-unknown-query-params')).toBe('resource_type,since');
    expect(legacy.headers.get('warning')).toMatch(/^299 - ".*resource_type.*"$/);
    expectError(await p.call('GET', `${TOMBSTONES}?foo=1&cause=`, { token: f.orgKey }), 400, 'bad_request');

    clock.advance(999);
    expect((await p.call('GET', `${TOMBSTONES}?foo=1`, { token: f.orgKey })).status).toBe(200);
    clock.advance(1); // 2026-10-10T00:00:00.000Z
    const rejected = await p.call('GET', `${TOMBSTONES}?foo=1`, { token: f.orgKey });
    expectError(rejected, 400, 'bad_request');
    expect(rejected.body.error.message).toContain('foo');
  });
});
