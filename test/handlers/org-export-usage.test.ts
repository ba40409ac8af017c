/**
 * GET /api/v1/org/usage: the rules every list shares (keys, limit, repeated and unrecognized parameters,
 * cursors, timestamp syntax, the visibility delay and stored precision) come from
 * test/support/export-routes.ts; this file adds what only this list does: its fields (no personal data),
 * its order by created_at and numeric id, its `since` filter.
 */
import { describe, expect, it } from 'vitest';
import { appendToSession, startSession } from '../../functions/chat/app/record-session-activity';
import type { UsageRow } from '../../functions/conversations/domain/usage';
import { ISO_MS, idsOf, pageThrough, pinnedPlatform, putUsageRow, shownUs, turnUsage } from '../support/export-api';
import { USAGE_ROUTE, exportRouteRules } from '../support/export-routes';
import { seedSessions } from '../support/imports';
import type { Fixture, TestPlatform } from '../support/platform';

const USAGE = '/api/v1/org/usage';
const USAGE_FIELDS = [
  'app_id',
  'cache_creation_input_tokens',
  'cache_read_input_tokens',
  'consumer_id',
  'cost_usd',
  'created_at',
  'id',
  'input_tokens',
  'model',
  'output_tokens',
  'session_id',
  'source',
];

describe('GET /api/v1/org/usage', () => {
  let p: TestPlatform;
  const driver = pinnedPlatform('2026-11-02T10:00:00.000Z', { visibilityDelayMs: 0 }, (started) => (p = started));

  const list = (token: string, query = '') => p.call('GET', `${USAGE}${query}`, { token });
  const putRow = (f: Fixture, createdAtUs: number, id?: number) => putUsageRow(p, f, createdAtUs, id);

  exportRouteRules(USAGE_ROUTE, () => p);

  it('lists rows with exactly the spec’s fields: integer id, cost as a decimal string, and no personal data', async () => {
    const f = await p.fixture();
    const [imported] = await seedSessions(p, f.appId, [{ email: 'private.person@example.com' }]);
    const consumerId = (await p.deps.sessions.get(imported!))!.consumerId!;
    const s = await startSession(p.deps, { appId: f.appId, consumerId, title: 'Private title' });
    const { usage } = await appendToSession(p.deps, {
      sessionId: s.id,
      messages: [{ role: 'user', content: 'private content' }],
      usage: [turnUsage(1), turnUsage(2)],
    });
    driver.stepMs(1);
    const sessionless = await putRow(f, driver.msAhead(0));

    const res = await list(f.orgKey);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'pagination']);
    expect(res.body.data).toHaveLength(3);
    for (const row of res.body.data) {
      expect(Object.keys(row).sort()).toEqual(USAGE_FIELDS);
      expect(Number.isInteger(row.id)).toBe(true);
      expect(typeof row.cost_usd).toBe('string');
      expect(row.cost_usd).toMatch(/^\d+(\.\d+)?$/);
      for (const k of ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens']) expect(Number.isInteger(row[k])).toBe(true);
      expect(row.created_at).toMatch(ISO_MS);
      expect(row.app_id).toBe(f.appId);
    }
    expect(res.body.data[0]).toEqual({
      id: sessionless.id,
      app_id: f.appId,
      session_id: null,
      consumer_id: null,
      model: 'model-a',
      source: 'consumer',
      input_tokens: 101,
      output_tokens: 21,
      cache_read_input_tokens: 1,
      cache_creation_input_tokens: 2,
      cost_usd: '0.00115',
      created_at: shownUs(sessionless.createdAtUs),
    });
    expect(res.body.data[1]).toMatchObject({ id: usage[1]!.id, session_id: s.id, consumer_id: consumerId, input_tokens: 102, cost_usd: '0.00215' });
    expect(res.body.data[2]).toMatchObject({ id: usage[0]!.id, session_id: s.id, consumer_id: consumerId });
    // No personal data anywhere in the body: join on consumer_id / session_id instead.
    expect(res.text).not.toContain('@');
    expect(res.text).not.toContain('private');
    expect(res.text).not.toContain('Private');
  });

  it('orders by created_at descending, then id descending', async () => {
    const f = await p.fixture();
    const s = await startSession(p.deps, { appId: f.appId });
    const written: UsageRow[] = [];
    for (let i = 0; i < 3; i++) {
      driver.stepMs(5);
      written.push(...(await appendToSession(p.deps, { sessionId: s.id, messages: [], usage: [turnUsage(i), turnUsage(i + 1)] })).usage);
    }
    const expected = [...written].sort((a, b) => b.createdAtUs - a.createdAtUs || b.id - a.id).map((u) => u.id);
    const res = await list(f.orgKey);
    expect(idsOf<number>(res)).toEqual(expected);
    const times = res.body.data.map((r: { created_at: string }) => r.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('pages rows sharing one microsecond exactly once each, by numeric id descending, at page sizes 1, 2 and 7', async () => {
    const f = await p.fixture();
    const tieUs = driver.msAhead(60_000) + 321;
    // Ids across a change in digit count: a string order would put 9999999999 above 10000000000.
    const ids = Array.from({ length: 11 }, (_, i) => 9_999_999_995 + i);
    for (const id of ids) await putRow(f, tieUs, id);
    driver.jumpTo(tieUs + 1000);
    const expected = [...ids].sort((a, b) => b - a);
    for (const limit of [1, 2, 7]) {
      const pages = await pageThrough(p, USAGE, f.orgKey, { limit });
      expect(
        pages.flatMap((pg) => pg.data.map((r: { id: number }) => r.id)),
        `limit ${limit}`,
      ).toEqual(expected);
      expect(pages).toHaveLength(Math.ceil(ids.length / limit));
      for (const pg of pages) for (const r of pg.data) expect(r.created_at).toBe(shownUs(tieUs));
    }
  });

  it('pages a burst of rows inside one millisecond exactly once each, in stored order', async () => {
    const f = await p.fixture();
    const s = await startSession(p.deps, { appId: f.appId });
    driver.stepMs(1000);
    const { usage } = await appendToSession(p.deps, { sessionId: s.id, messages: [], usage: Array.from({ length: 9 }, (_, i) => turnUsage(i)) });
    expect(new Set(usage.map((u) => Math.floor(u.createdAtUs / 1000))).size).toBe(1);
    const expected = [...usage].sort((a, b) => b.createdAtUs - a.createdAtUs || b.id - a.id).map((u) => u.id);
    for (const limit of [1, 2, 7]) {
      const pages = await pageThrough(p, USAGE, f.orgKey, { limit });
      expect(
        pages.flatMap((pg) => pg.data.map((r: { id: number }) => r.id)),
        `limit ${limit}`,
      ).toEqual(expected);
    }
  });

  it('since is an inclusive lower bound on created_at; the client value is floored to the millisecond', async () => {
    const f = await p.fixture();
    const base = driver.msAhead(60_000);
    const early = await putRow(f, base);
    const onTheMs = await putRow(f, base + 10_000);
    const late = await putRow(f, base + 20_456);
    driver.jumpTo(base + 60_000);

    expect(idsOf<number>(await list(f.orgKey, `?since=${shownUs(onTheMs.createdAtUs)}`))).toEqual([late.id, onTheMs.id]);
    expect(idsOf<number>(await list(f.orgKey, `?since=${shownUs(onTheMs.createdAtUs + 1000)}`))).toEqual([late.id]);
    expect(idsOf<number>(await list(f.orgKey, `?since=${shownUs(early.createdAtUs)}`))).toEqual([late.id, onTheMs.id, early.id]);
    const lateMs = shownUs(late.createdAtUs).slice(0, -1);
    for (const value of [`${lateMs}999Z`, `${lateMs}456Z`, `${lateMs}4569Z`, `${lateMs}Z`]) {
      expect(idsOf<number>(await list(f.orgKey, `?since=${encodeURIComponent(value)}`)), value).toEqual([late.id]);
    }
    expect(idsOf<number>(await list(f.orgKey, `?since=${shownUs(late.createdAtUs + 1000)}`))).toEqual([]);
    const d = Math.floor(late.createdAtUs / 1000);
    const offset = new Date(d + 2 * 3600_000).toISOString().replace('Z', '999+02:00');
    expect(idsOf<number>(await list(f.orgKey, `?since=${encodeURIComponent(offset)}`))).toEqual([late.id]);
  });
});
