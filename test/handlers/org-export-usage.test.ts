import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendToSession, startSession, type TurnUsage } from '../../functions/app/record-session-activity';
import type { UsageRow } from '../../functions/domain/usage';
import { TestClock } from '../support/clock';
import { ClockDriver, ISO_MS, expectError, forgedCursors, newKey, pageThrough, shownUs, timestampMessage } from '../support/export-api';
import { seedSessions } from '../support/imports';
import { startTestPlatform, type TestPlatform, type TestResponse } from '../support/platform';

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

const call = (n: number): TurnUsage => ({
  model: 'model-a',
  source: 'consumer',
  inputTokens: 100 + n,
  outputTokens: 20 + n,
  cacheReadInputTokens: n,
  cacheCreationInputTokens: 2 * n,
  costUsd: `0.00${n}15`,
});
const idsOf = (res: TestResponse): number[] => res.body.data.map((r: { id: number }) => r.id);

describe('GET /api/v1/org/usage', () => {
  const START = '2026-11-02T10:00:00.000Z';
  const clock = new TestClock(START, false);
  const driver = new ClockDriver(clock, START);
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform({ clock, visibilityDelayMs: 0 });
  });
  afterAll(() => p.stop());

  const list = (token: string, query = '') => p.call('GET', `${USAGE}${query}`, { token });
  /** A usage row written straight through the usage store, on an exact microsecond. */
  const putRow = async (f: { orgId: string; appId: string }, createdAtUs: number, id?: number): Promise<UsageRow> => {
    const row: UsageRow = { ...call(1), id: id ?? (await p.deps.usage.nextId()), orgId: f.orgId, appId: f.appId, sessionId: null, consumerId: null, createdAtUs };
    await p.deps.usage.put(row);
    return row;
  };

  it('answers 401 to a missing or invalid key and 403 to a key without usage:read', async () => {
    const f = await p.fixture({ scopes: ['apps:read', 'transcripts:read', 'tombstones:read'] });
    expectError(await p.call('GET', USAGE), 401);
    expectError(await p.call('GET', USAGE, { token: `svc_org_${'z'.repeat(43)}` }), 401);
    const forbidden = await list(f.orgKey);
    expectError(forbidden, 403);
    expect(forbidden.body.error.message).toContain('usage:read');
    expect((await list(await newKey(p, f.orgId, ['usage:read']))).status).toBe(200);
  });

  it('lists rows with exactly the spec’s fields: integer id, cost as a decimal string, and no personal data', async () => {
    const f = await p.fixture();
    const [imported] = await seedSessions(p, f.appId, [{ email: 'private.person@example.com' }]);
    const consumerId = (await p.deps.sessions.get(imported!))!.consumerId!;
    const s = await startSession(p.deps, { appId: f.appId, consumerId, title: 'Private title' });
    const { usage } = await appendToSession(p.deps, { sessionId: s.id, messages: [{ role: 'user', content: 'private content' }], usage: [call(1), call(2)] });
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
      written.push(...(await appendToSession(p.deps, { sessionId: s.id, messages: [], usage: [call(i), call(i + 1)] })).usage);
    }
    const expected = [...written].sort((a, b) => b.createdAtUs - a.createdAtUs || b.id - a.id).map((u) => u.id);
    const res = await list(f.orgKey);
    expect(idsOf(res)).toEqual(expected);
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
      expect(pages.flatMap((pg) => pg.data.map((r: { id: number }) => r.id)), `limit ${limit}`).toEqual(expected);
      expect(pages).toHaveLength(Math.ceil(ids.length / limit));
      for (const pg of pages) for (const r of pg.data) expect(r.created_at).toBe(shownUs(tieUs));
    }
  });

  it('pages a burst of rows inside one millisecond exactly once each, in stored order', async () => {
    const f = await p.fixture();
    const s = await startSession(p.deps, { appId: f.appId });
    driver.stepMs(1000);
    const { usage } = await appendToSession(p.deps, { sessionId: s.id, messages: [], usage: Array.from({ length: 9 }, (_, i) => call(i)) });
    expect(new Set(usage.map((u) => Math.floor(u.createdAtUs / 1000))).size).toBe(1);
    const expected = [...usage].sort((a, b) => b.createdAtUs - a.createdAtUs || b.id - a.id).map((u) => u.id);
    for (const limit of [1, 2, 7]) {
      const pages = await pageThrough(p, USAGE, f.orgKey, { limit });
      expect(pages.flatMap((pg) => pg.data.map((r: { id: number }) => r.id)), `limit ${limit}`).toEqual(expected);
    }
  });

  it('since is an inclusive lower bound on created_at; the client value is floored to the millisecond', async () => {
    const f = await p.fixture();
    const base = driver.msAhead(60_000);
    const early = await putRow(f, base);
    const onTheMs = await putRow(f, base + 10_000);
    const late = await putRow(f, base + 20_456);
    driver.jumpTo(base + 60_000);

    expect(idsOf(await list(f.orgKey, `?since=${shownUs(onTheMs.createdAtUs)}`))).toEqual([late.id, onTheMs.id]);
    expect(idsOf(await list(f.orgKey, `?since=${shownUs(onTheMs.createdAtUs + 1000)}`))).toEqual([late.id]);
    expect(idsOf(await list(f.orgKey, `?since=${shownUs(early.createdAtUs)}`))).toEqual([late.id, onTheMs.id, early.id]);
    const lateMs = shownUs(late.createdAtUs).slice(0, -1);
    for (const value of [`${lateMs}999Z`, `${lateMs}456Z`, `${lateMs}4569Z`, `${lateMs}Z`]) {
      expect(idsOf(await list(f.orgKey, `?since=${encodeURIComponent(value)}`)), value).toEqual([late.id]);
    }
    expect(idsOf(await list(f.orgKey, `?since=${shownUs(late.createdAtUs + 1000)}`))).toEqual([]);
    const d = Math.floor(late.createdAtUs / 1000);
    const offset = new Date(d + 2 * 3600_000).toISOString().replace('Z', '999+02:00');
    expect(idsOf(await list(f.orgKey, `?since=${encodeURIComponent(offset)}`))).toEqual([late.id]);
    for (const frac of ['.1', '.12', '.123', '.1234', '.12345', '.123456', '.1234567', '.12345678', '.123456789']) {
      expect((await list(f.orgKey, `?since=2026-01-31T12:00:00${frac}Z`)).status).toBe(200);
    }
  });

  it('rejects a malformed or present-empty since with 400 and the spec’s message', async () => {
    const f = await p.fixture();
    for (const value of ['', 'now', '2026-01-31', '2026-01-31T12:00:00', '2026-13-01T00:00:00Z', '2026-01-31T12:00:00.1234567891Z', '2026-01-31T12:00:00+0200']) {
      expectError(await list(f.orgKey, `?since=${encodeURIComponent(value)}`), 400, 'bad_request', timestampMessage('since'));
    }
  });

  it('shows created_at floored from the stored microseconds', async () => {
    const f = await p.fixture();
    const atUs = driver.msAhead(60_000) + 999;
    await putRow(f, atUs);
    driver.jumpTo(atUs + 1);
    expect((await list(f.orgKey)).body.data[0].created_at).toBe(new Date(Math.floor(atUs / 1000)).toISOString());
  });

  describe('limit', () => {
    let f: Awaited<ReturnType<TestPlatform['fixture']>>;
    beforeAll(async () => {
      f = await p.fixture();
      const s = await startSession(p.deps, { appId: f.appId });
      await appendToSession(p.deps, { sessionId: s.id, messages: [], usage: Array.from({ length: 101 }, (_, i) => call(i)) });
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

  it('rejects created_after (the spec’s example), any unrecognized or repeated parameter with 400', async () => {
    const f = await p.fixture();
    const res = await list(f.orgKey, '?created_after=2026-01-01T00:00:00Z');
    expectError(res, 400, 'bad_request');
    expect(res.body.error.message).toContain('created_after');
    for (const query of ['?updated_after=2026-01-01T00:00:00Z', '?cause=app_deleted', '?since=2026-01-01T00:00:00Z&since=2026-01-01T00:00:00Z', '?limit=5&limit=5']) {
      expectError(await list(f.orgKey, query), 400, 'bad_request');
    }
  });

  it('refuses damaged cursors, and cursors of another org, endpoint or since; a retry returns the same page', async () => {
    const f = await p.fixture();
    const g = await p.fixture();
    for (let i = 0; i < 4; i++) {
      await putRow(f, driver.stepMs(1));
      await putRow(g, driver.stepMs(1));
    }
    driver.stepMs(1);
    const first = await list(f.orgKey, '?limit=2');
    const cursor: string = first.body.pagination.next_cursor;
    const c = encodeURIComponent(cursor);
    const second = await list(f.orgKey, `?limit=2&cursor=${c}`);
    expect(second.status).toBe(200);
    expect(await list(f.orgKey, `?limit=2&cursor=${c}`)).toMatchObject({ status: 200, body: second.body });

    for (const forged of forgedCursors(cursor)) {
      const res = await list(f.orgKey, `?limit=2&cursor=${encodeURIComponent(forged.value)}`);
      expect(res.status, forged.name).toBe(400);
      expectError(res, 400, 'bad_request');
    }
    const withSince = encodeURIComponent((await list(f.orgKey, '?limit=1&since=2026-01-01T00:00:00Z')).body.pagination.next_cursor);
    const sessionsCursor = encodeURIComponent((await p.call('GET', '/api/v1/org/sessions?limit=1', { token: f.orgKey })).body.pagination.next_cursor);
    const tombCursor = encodeURIComponent((await p.call('GET', '/api/v1/org/tombstones?limit=1', { token: f.orgKey })).body.pagination.next_cursor);
    const refused: [string, string, string][] = [
      ['another org', `?limit=2&cursor=${c}`, g.orgKey],
      ['since added', `?limit=2&since=2026-01-01T00:00:00Z&cursor=${c}`, f.orgKey],
      ['since changed', `?limit=2&since=2026-01-02T00:00:00Z&cursor=${withSince}`, f.orgKey],
      ['since dropped', `?limit=2&cursor=${withSince}`, f.orgKey],
      ['a /sessions cursor', `?limit=2&cursor=${sessionsCursor}`, f.orgKey],
      ['a /tombstones cursor', `?limit=2&cursor=${tombCursor}`, f.orgKey],
    ];
    for (const [name, query, token] of refused) {
      const res = await p.call('GET', `${USAGE}${query}`, { token });
      expect(res.status, name).toBe(400);
      expectError(res, 400, 'bad_request');
    }
  });
});

describe('GET /api/v1/org/usage: visibility delay', () => {
  const START = '2026-11-02T12:00:00.000Z';
  const clock = new TestClock(START, false);
  const driver = new ClockDriver(clock, START);
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform({ clock, visibilityDelayMs: 5000 });
  });
  afterAll(() => p.stop());

  it('hides a row newer than now − VISIBILITY_DELAY_MS until the clock passes it', async () => {
    const f = await p.fixture();
    const s = await startSession(p.deps, { appId: f.appId });
    driver.stepMs(1000);
    const { usage } = await appendToSession(p.deps, { sessionId: s.id, messages: [], usage: [call(1)] });
    const ids = async () => idsOf(await p.call('GET', USAGE, { token: f.orgKey }));
    expect(await ids()).toEqual([]);
    driver.advance(4999);
    expect(await ids()).toEqual([]);
    driver.advance(1);
    expect(await ids()).toEqual([usage[0]!.id]);
  });

  it('shows a row stored at .xxx999 µs under the lower millisecond', async () => {
    const f = await p.fixture();
    const s = await startSession(p.deps, { appId: f.appId });
    // appendToSession reads the clock once for its touch, then once per usage row.
    const targetUs = driver.msAhead(60_000) + 998;
    driver.jumpTo(targetUs);
    const { usage } = await appendToSession(p.deps, { sessionId: s.id, messages: [], usage: [call(1)] });
    expect(usage[0]!.createdAtUs).toBe(targetUs + 1);
    expect(usage[0]!.createdAtUs % 1000).toBe(999);
    driver.advance(6000);
    const res = await p.call('GET', USAGE, { token: f.orgKey });
    expect(res.body.data[0].created_at).toBe(new Date(Math.floor(usage[0]!.createdAtUs / 1000)).toISOString());
  });
});

describe('GET /api/v1/org/usage: unrecognized parameters around 2026-10-10', () => {
  const clock = new TestClock('2026-10-09T23:59:59.000Z', false);
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform({ clock, visibilityDelayMs: 0 });
  });
  afterAll(() => p.stop());

  it('created_after: 200 unfiltered with Warning and X-Svc-Unknown-Query-Params before the date, 400 from it', async () => {
    const f = await p.fixture();
    const s = await startSession(p.deps, { appId: f.appId });
    await appendToSession(p.deps, { sessionId: s.id, messages: [], usage: [call(1), call(2)] });
    const plain = await p.call('GET', USAGE, { token: f.orgKey });
    expect(plain.body.data).toHaveLength(2);

    const legacy = await p.call('GET', `${USAGE}?created_after=2099-01-01T00:00:00Z`, { token: f.orgKey });
    expect(legacy.status, legacy.text).toBe(200);
    expect(legacy.body.data).toEqual(plain.body.data);
    expect(legacy.headers.get('x-svc-unknown-query-params')).toBe('created_after');
    expect(legacy.headers.get('warning')).toMatch(/^299 - ".*created_after.*"$/);
    expectError(await p.call('GET', `${USAGE}?created_after=x&since=`, { token: f.orgKey }), 400, 'bad_request', timestampMessage('since'));

    clock.advance(999);
    expect((await p.call('GET', `${USAGE}?created_after=2099-01-01T00:00:00Z`, { token: f.orgKey })).status).toBe(200);
    clock.advance(1); // 2026-10-10T00:00:00.000Z
    const rejected = await p.call('GET', `${USAGE}?created_after=2099-01-01T00:00:00Z`, { token: f.orgKey });
    expectError(rejected, 400, 'bad_request');
    expect(rejected.body.error.message).toContain('created_after');
  });
});
