/**
 * GET /api/v1/org/tombstones: the rules every list shares (keys, limit, repeated and unrecognized
 * parameters, cursors, the visibility delay and stored precision) come from test/support/export-routes.ts;
 * this file adds what only this list does: its fields (nothing of the content), its order by deleted_at,
 * the tombstones of an app deletion, its `cause` filter.
 */
import { describe, expect, it } from 'vitest';
import { deleteSession } from '../../functions/conversations/app/delete-resources';
import { appendToSession, startSession } from '../../functions/chat/app/record-session-activity';
import type { Tombstone } from '../../functions/conversations/domain/tombstone';
import { ISO_MS, descending, expectError, idsOf, pageThrough, pinnedPlatform, putTombstone, shownUs } from '../support/export-api';
import { TOMBSTONES_ROUTE, exportRouteRules } from '../support/export-routes';
import { seedSessions } from '../support/imports';
import type { TestPlatform } from '../support/platform';

const TOMBSTONES = '/api/v1/org/tombstones';

describe('GET /api/v1/org/tombstones', () => {
  let p: TestPlatform;
  const driver = pinnedPlatform('2026-11-02T10:00:00.000Z', { visibilityDelayMs: 0 }, (started) => (p = started));

  const list = (token: string, query = '') => p.call('GET', `${TOMBSTONES}${query}`, { token });

  exportRouteRules(TOMBSTONES_ROUTE, () => p);

  it('lists tombstones with exactly id, resource_type, resource_id, cause, deleted_at, and nothing of the content', async () => {
    const f = await p.fixture();
    const [sessionId, otherSessionId] = await seedSessions(p, f.appId, [
      { email: 'gone@example.com', messages: ['2026-01-01T00:00:01Z'] },
      { email: 'gone@example.com' },
    ]);
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
    const expected = idsOf(all).sort(descending);
    expect(idsOf(all)).toEqual(expected);

    for (const [query, limit] of [
      ['', 1],
      ['', 2],
      ['', 7],
      ['?cause=app_deleted', 2],
    ] as const) {
      const pages = await pageThrough(p, `${TOMBSTONES}${query}`, f.orgKey, { limit });
      expect(
        pages.flatMap((pg) => pg.data.map((r: { id: string }) => r.id)),
        `${query} limit ${limit}`,
      ).toEqual(expected);
      expect(pages).toHaveLength(Math.ceil(15 / limit));
      for (const pg of pages.slice(0, -1)) expect(pg.data).toHaveLength(limit);
    }
  });

  it('pages tombstones sharing one microsecond exactly once each, by id descending', async () => {
    const f = await p.fixture();
    const tieUs = driver.msAhead(60_000) + 777;
    const written: Tombstone[] = [];
    for (let i = 0; i < 9; i++) written.push(await putTombstone(p, f.orgId, tieUs));
    driver.jumpTo(tieUs + 1000);
    const expected = written.map((t) => t.id).sort(descending);
    for (const limit of [1, 2, 7]) {
      const pages = await pageThrough(p, TOMBSTONES, f.orgKey, { limit });
      expect(
        pages.flatMap((pg) => pg.data.map((r: { id: string }) => r.id)),
        `limit ${limit}`,
      ).toEqual(expected);
      for (const pg of pages) for (const r of pg.data) expect(r.deleted_at).toBe(shownUs(tieUs));
    }
  });

  it('filters by exact cause; an unrecognized well-formed cause is 200 and empty; an empty cause is 400', async () => {
    const f = await p.fixture();
    const base = driver.msAhead(60_000);
    const consumerDeleted = await putTombstone(p, f.orgId, base + 1, 'consumer_deleted');
    const appDeleted = [await putTombstone(p, f.orgId, base + 2, 'app_deleted'), await putTombstone(p, f.orgId, base + 3, 'app_deleted')];
    const retention = await putTombstone(p, f.orgId, base + 4, 'retention_expiry');
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
    expectError(await list(f.orgKey, '?cause='), 400, 'bad_request');
  });
});
