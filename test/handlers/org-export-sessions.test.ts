import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendToSession, deleteMessage, editMessage, renameSession, startSession } from '../../functions/app/record-session-activity';
import type { Session } from '../../functions/domain/session';
import { TestClock } from '../support/clock';
import {
  APP_ID_MESSAGE,
  ClockDriver,
  ISO_MS,
  expectError,
  forgedCursors,
  newKey,
  pageThrough,
  shownUs,
  timestampMessage,
} from '../support/export-api';
import { seedSessions } from '../support/imports';
import { startTestPlatform, type TestPlatform, type TestResponse } from '../support/platform';

const SESSIONS = '/api/v1/org/sessions';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SESSION_FIELDS = [
  'app_id',
  'consumer_email',
  'consumer_id',
  'ended_at',
  'external_id',
  'id',
  'last_activity_at',
  'last_message_at',
  'query_params',
  'source',
  'started_at',
  'title',
];

const idsOf = (res: TestResponse): string[] => res.body.data.map((r: { id: string }) => r.id);
const desc = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);
const lastActivityUs = (s: Session) => Math.max(s.lastMessageAtUs ?? s.startedAtUs, s.touchedAtUs);

describe('GET /api/v1/org/sessions', () => {
  const START = '2026-11-02T10:00:00.000Z';
  // Pinned: time moves only by `advance` (plus one microsecond per reading), so rows can share a
  // millisecond or sit on an exact microsecond.
  const clock = new TestClock(START, false);
  const driver = new ClockDriver(clock, START);
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform({ clock, visibilityDelayMs: 0 });
  });
  afterAll(() => p.stop());

  const list = (token: string, query = '') => p.call('GET', `${SESSIONS}${query}`, { token });
  const stored = async (id: string) => (await p.deps.sessions.get(id))!;
  /** Sessions written straight through the session store: cheap bulk rows for the page-size tests. */
  const bulkSessions = (f: { orgId: string; appId: string }, n: number, title = ''): Promise<string[]> =>
    Promise.all(
      Array.from({ length: n }, async () => {
        const now = p.deps.clock.nowUs();
        const s: Session = { id: randomUUID(), orgId: f.orgId, appId: f.appId, consumerId: null, consumerEmail: null, title, source: 'APP', externalId: null, queryParams: [], startedAtUs: now, lastMessageAtUs: null, touchedAtUs: now };
        await p.deps.sessions.create(s);
        return s.id;
      }),
    );
  /** The order the spec demands, from the stored values: last activity (µs) descending, then id descending. */
  const specOrder = async (ids: readonly string[]) => {
    const sessions = await Promise.all(ids.map(stored));
    return sessions.sort((a, b) => lastActivityUs(b) - lastActivityUs(a) || desc(a.id, b.id)).map((s) => s.id);
  };

  describe('keys and scopes', () => {
    it('answers 401 to a missing or invalid key and 403 to a key without transcripts:read', async () => {
      const f = await p.fixture({ scopes: ['apps:read', 'usage:read', 'tombstones:read'] });
      for (const res of [
        await p.call('GET', SESSIONS),
        await p.call('GET', SESSIONS, { token: `svc_org_${'x'.repeat(43)}` }),
        await p.call('GET', SESSIONS, { token: `${f.orgKey}x` }),
        await p.call('GET', SESSIONS, { headers: { Authorization: `Basic ${f.orgKey}` } }),
      ]) {
        expectError(res, 401);
      }
      const forbidden = await list(f.orgKey);
      expectError(forbidden, 403);
      expect(forbidden.body.error.message).toContain('transcripts:read');

      const onlyTranscripts = await newKey(p, f.orgId, ['transcripts:read']);
      expect((await list(onlyTranscripts)).status).toBe(200);
    });
  });

  describe('fields', () => {
    it('lists each session with exactly the spec’s fields and types, consumer email included', async () => {
      const f = await p.fixture();
      const [imported] = await seedSessions(p, f.appId, [{ email: 'ada@example.com', startedAt: '2026-03-04T05:06:07.891Z', messages: ['2026-03-04T05:06:08.000Z'] }]);
      const consumerId = (await stored(imported!)).consumerId!;
      const web = await startSession(p.deps, {
        appId: f.appId,
        consumerId,
        title: 'Pricing question',
        externalId: 'whatsapp:+4915112345678',
        queryParams: [
          { name: 'utm_source', value: 'newsletter' },
          { name: 'bt', value: 'builder-token' },
          { name: 'session', value: 'abc' },
          { name: 'share', value: '1' },
          { name: 'ref', value: 'a b&c' },
        ],
      });
      const bare = await startSession(p.deps, { appId: f.appId });

      const res = await list(f.orgKey);
      expect(res.status, res.text).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['data', 'pagination']);
      expect(res.body.pagination).toEqual({ next_cursor: expect.any(String), has_more: false, limit: 50 });
      expect(res.body.data).toHaveLength(3);
      for (const row of res.body.data) {
        expect(Object.keys(row).sort()).toEqual(SESSION_FIELDS);
        expect(row.id).toMatch(UUID);
        expect(row.app_id).toBe(f.appId);
        expect(typeof row.title).toBe('string');
        expect(row.source).toBe('APP');
        for (const field of ['started_at', 'ended_at', 'last_activity_at']) expect(row[field]).toMatch(ISO_MS);
        expect(row.last_message_at === null || ISO_MS.test(row.last_message_at)).toBe(true);
        expect(Array.isArray(row.query_params)).toBe(true);
      }
      const byId = new Map<string, any>(res.body.data.map((r: { id: string }) => [r.id, r]));
      expect(byId.get(web.id)).toMatchObject({
        consumer_id: consumerId,
        consumer_email: 'ada@example.com',
        title: 'Pricing question',
        external_id: 'whatsapp:+4915112345678',
        // The control parameters bt, session and share never reach the export.
        query_params: [
          { name: 'utm_source', value: 'newsletter' },
          { name: 'ref', value: 'a b&c' },
        ],
        last_message_at: null,
      });
      expect(byId.get(bare.id)).toMatchObject({ consumer_id: null, consumer_email: null, external_id: null, query_params: [], title: '', last_message_at: null });
      expect(byId.get(imported!)).toMatchObject({
        consumer_id: consumerId,
        consumer_email: 'ada@example.com',
        started_at: '2026-03-04T05:06:07.891Z',
        last_message_at: '2026-03-04T05:06:08.000Z',
      });
    });

    it('derives last_activity_at = GREATEST(COALESCE(last_message_at, started_at), touch); last_message_at is null until the first message', async () => {
      const f = await p.fixture();
      const row = async (id: string) => (await list(f.orgKey)).body.data.find((r: { id: string }) => r.id === id);

      const startedAt = shownUs(driver.stepMs(10));
      const s = await startSession(p.deps, { appId: f.appId, title: 'first' });
      expect(await row(s.id)).toMatchObject({ started_at: startedAt, ended_at: startedAt, last_activity_at: startedAt, last_message_at: null });

      const messagedAt = shownUs(driver.stepMs(10));
      const { messages } = await appendToSession(p.deps, {
        sessionId: s.id,
        messages: [
          { role: 'user', content: 'hello' },
          { role: 'assistant', content: 'hi' },
        ],
      });
      expect(await row(s.id)).toMatchObject({ started_at: startedAt, last_message_at: messagedAt, ended_at: messagedAt, last_activity_at: messagedAt });

      // A historic edit, a metadata change and a message delete move only the touch clock.
      for (const change of [
        () => editMessage(p.deps, { sessionId: s.id, messageId: messages[0]!.id, content: 'hello again' }),
        () => renameSession(p.deps, { sessionId: s.id, title: 'renamed' }),
        () => deleteMessage(p.deps, { sessionId: s.id, messageId: messages[1]!.id }),
      ]) {
        const touchedAt = shownUs(driver.stepMs(10));
        await change();
        expect(await row(s.id)).toMatchObject({ started_at: startedAt, last_message_at: messagedAt, last_activity_at: touchedAt });
      }
      expect((await row(s.id)).title).toBe('renamed');

      // An import keeps the historical times and touches the session at import time.
      const importedAt = shownUs(driver.stepMs(10));
      const [old] = await seedSessions(p, f.appId, [{ startedAt: '2025-05-01T00:00:00Z', messages: ['2025-05-01T00:00:01.5Z', '2025-05-01T00:00:02.25Z'] }]);
      expect(await row(old!)).toMatchObject({
        started_at: '2025-05-01T00:00:00.000Z',
        last_message_at: '2025-05-01T00:00:02.250Z',
        ended_at: '2025-05-01T00:00:02.250Z',
        last_activity_at: importedAt,
      });

      // Either side of GREATEST can win: a start or a last message later than the touch clock is the
      // session's activity (hidden until the clock reaches it, then listed and shown at that time).
      const importMs = Math.floor(driver.stepMs(10) / 1000);
      const iso = (ms: number) => new Date(ms).toISOString();
      const [futureStart, futureMessage] = await seedSessions(p, f.appId, [
        { startedAt: iso(importMs + 30_000) },
        { startedAt: iso(importMs - 60_000), messages: [iso(importMs + 30_005)] },
      ]);
      expect(await row(futureStart!)).toBeUndefined();
      driver.jumpTo((importMs + 31_000) * 1000);
      expect(await row(futureStart!)).toMatchObject({ started_at: iso(importMs + 30_000), last_message_at: null, last_activity_at: iso(importMs + 30_000) });
      expect(await row(futureMessage!)).toMatchObject({ last_message_at: iso(importMs + 30_005), last_activity_at: iso(importMs + 30_005) });
    });
  });

  describe('order', () => {
    it('sorts by last_activity_at descending; a session that gains activity moves to the top', async () => {
      const f = await p.fixture();
      const made: string[] = [];
      for (let i = 0; i < 4; i++) {
        driver.advance(2);
        made.push((await startSession(p.deps, { appId: f.appId, title: `s${i}` })).id);
      }
      expect(idsOf(await list(f.orgKey))).toEqual([...made].reverse());
      const activities = (await list(f.orgKey)).body.data.map((r: { last_activity_at: string }) => r.last_activity_at);
      expect([...activities].sort().reverse()).toEqual(activities);

      driver.advance(2);
      await appendToSession(p.deps, { sessionId: made[1]!, messages: [{ role: 'user', content: 'back again' }] });
      expect(idsOf(await list(f.orgKey))).toEqual([made[1], made[3], made[2], made[0]]);
      driver.advance(2);
      await renameSession(p.deps, { sessionId: made[0]!, title: 'renamed' });
      expect(idsOf(await list(f.orgKey))).toEqual([made[0], made[1], made[3], made[2]]);
    });

    it('within one pass, a row that gains activity moves above the cursor: never repeated, never lost for the next run', async () => {
      const f = await p.fixture();
      const made: string[] = [];
      for (let i = 0; i < 6; i++) {
        driver.advance(2);
        made.push((await startSession(p.deps, { appId: f.appId })).id);
      }
      const first = await list(f.orgKey, '?limit=2');
      expect(idsOf(first)).toEqual([made[5], made[4]]);
      // One seen and one unseen session change during the pass.
      driver.advance(2);
      await renameSession(p.deps, { sessionId: made[5]!, title: 'seen, changed' });
      await renameSession(p.deps, { sessionId: made[1]!, title: 'unseen, changed' });
      const rest = await pageThrough(p, SESSIONS, f.orgKey, { limit: 2, cursor: first.body.pagination.next_cursor });
      const pass = [...idsOf(first), ...rest.flatMap((pg) => pg.data.map((r: { id: string }) => r.id))];
      expect(pass).toEqual([made[5], made[4], made[3], made[2], made[0]]);

      // The next run starts from the pass's maximum last_activity_at and finds both changes.
      const checkpoint = [...first.body.data, ...rest.flatMap((pg) => pg.data)].map((r: { last_activity_at: string }) => r.last_activity_at).sort().pop();
      const next = await list(f.orgKey, `?updated_after=${checkpoint}`);
      expect(new Set(idsOf(next))).toEqual(new Set([made[5], made[1]]));
    });

    it('pages rows sharing one microsecond exactly once each, by id descending, at page sizes 1, 2 and 7', async () => {
      const f = await p.fixture();
      const made = await bulkSessions(f, 11);
      // Every session's touch clock on one microsecond: the id alone orders them.
      const tieUs = driver.msAhead(60_000) + 123;
      for (const id of made) expect(await p.deps.sessions.touch(id, tieUs)).toBe(true);
      driver.jumpTo(tieUs + 1000);
      const expected = [...made].sort(desc);

      for (const limit of [1, 2, 7]) {
        const pages = await pageThrough(p, SESSIONS, f.orgKey, { limit });
        const seen = pages.flatMap((pg) => pg.data.map((r: { id: string }) => r.id));
        expect(seen, `limit ${limit}`).toEqual(expected);
        expect(pages).toHaveLength(Math.ceil(made.length / limit));
        for (const pg of pages.slice(0, -1)) expect(pg.data).toHaveLength(limit);
        for (const pg of pages) for (const r of pg.data) expect(r.last_activity_at).toBe(shownUs(tieUs));
      }
    });

    it('pages rows sharing one millisecond (distinct microseconds) exactly once each, in stored order', async () => {
      const f = await p.fixture();
      driver.stepMs(1000);
      const made = await bulkSessions(f, 9);
      const expected = await specOrder(made);
      const first = await list(f.orgKey);
      // The premise: one millisecond on the wire for all of them.
      expect(new Set(first.body.data.map((r: { last_activity_at: string }) => r.last_activity_at)).size).toBe(1);
      expect(idsOf(first)).toEqual(expected);
      for (const limit of [1, 2, 7]) {
        const pages = await pageThrough(p, SESSIONS, f.orgKey, { limit });
        expect(pages.flatMap((pg) => pg.data.map((r: { id: string }) => r.id)), `limit ${limit}`).toEqual(expected);
      }
    });
  });

  describe('filters', () => {
    it('updated_after is inclusive (>=) on last_activity_at and floors the client value to the millisecond', async () => {
      const f = await p.fixture();
      driver.stepMs(10);
      const early = await startSession(p.deps, { appId: f.appId });
      const onTheMsUs = driver.stepMs(10);
      const onTheMs = await startSession(p.deps, { appId: f.appId });
      expect(onTheMs.startedAtUs).toBe(onTheMsUs);
      // A session whose activity sits at .xxx456 µs.
      const subMsUs = driver.msAhead(60_000) + 456;
      driver.jumpTo(subMsUs);
      const late = await startSession(p.deps, { appId: f.appId });
      expect(late.touchedAtUs).toBe(subMsUs);

      const at = shownUs(onTheMs.startedAtUs);
      expect(idsOf(await list(f.orgKey, `?updated_after=${at}`))).toEqual([late.id, onTheMs.id]);
      const oneMsLater = shownUs(onTheMs.startedAtUs + 1000);
      expect(idsOf(await list(f.orgKey, `?updated_after=${oneMsLater}`))).toEqual([late.id]);
      expect(idsOf(await list(f.orgKey, `?updated_after=${shownUs(early.startedAtUs)}`))).toEqual([late.id, onTheMs.id, early.id]);

      // `.xxx999Z` is floored to `.xxx`, then compared >= against the stored .xxx456: included.
      const lateMs = shownUs(subMsUs).slice(0, -1); // …T..:..:..xxx
      for (const value of [`${lateMs}999Z`, `${lateMs}456Z`, `${lateMs}456789Z`, `${lateMs}Z`]) {
        expect(idsOf(await list(f.orgKey, `?updated_after=${encodeURIComponent(value)}`)), value).toEqual([late.id]);
      }
      expect(idsOf(await list(f.orgKey, `?updated_after=${shownUs(subMsUs + 1000)}`))).toEqual([]);

      // The same instant written with an offset.
      const d = new Date(Math.floor(subMsUs / 1000));
      const plusTwo = new Date(d.getTime() + 2 * 3600_000).toISOString().replace('Z', '999+02:00');
      expect(idsOf(await list(f.orgKey, `?updated_after=${encodeURIComponent(plusTwo)}`))).toEqual([late.id]);
      const minusFiveThirty = new Date(d.getTime() - 5.5 * 3600_000).toISOString().replace('Z', '-05:30');
      expect(idsOf(await list(f.orgKey, `?updated_after=${encodeURIComponent(minusFiveThirty)}`))).toEqual([late.id]);
    });

    it('accepts Z, offsets and fractions of 1 to 9 digits', async () => {
      const f = await p.fixture();
      // Every fraction length is in test/unit/export-params.test.ts; here, that each filter takes them.
      const values = ['2026-01-31T12:00:00Z', '2026-01-31T12:00:00+02:00', '2026-01-31T12:00:00.1Z', '2026-01-31T12:00:00.1234567-05:30', '2026-01-31T12:00:00.123456789Z'];
      const cases = ['updated_after', 'started_after', 'started_before'].flatMap((param) => values.map((value) => [param, value]));
      for (const [param, value] of cases) {
        const res = await list(f.orgKey, `?${param}=${encodeURIComponent(value!)}`);
        expect(res.status, `${param}=${value}: ${res.text}`).toBe(200);
      }
    });

    it('started_after is inclusive, started_before exclusive; all filters combine with AND', async () => {
      const f = await p.fixture();
      const other = await p.admin('POST', `/orgs/${f.orgId}/apps`, { name: 'Other' });
      const otherAppId: string = other.body.data.id;
      const days = ['2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z', '2026-01-03T00:00:00.000Z'];
      driver.stepMs(10);
      const [a1, b1, c1] = await seedSessions(p, f.appId, days.map((startedAt) => ({ startedAt })));
      const importedLaterAt = shownUs(driver.stepMs(10));
      const [a2, b2, c2] = await seedSessions(p, otherAppId, days.map((startedAt) => ({ startedAt })));
      const [, day2, day3] = days;
      const q = async (query: string) => new Set(idsOf(await list(f.orgKey, query)));

      expect(await q(`?started_after=${day2}`)).toEqual(new Set([b1, c1, b2, c2]));
      expect(await q(`?started_before=${day2}`)).toEqual(new Set([a1, a2]));
      expect(await q(`?started_after=${day2}&started_before=${day3}`)).toEqual(new Set([b1, b2]));
      expect(await q(`?started_after=${day3}&started_before=${day2}`)).toEqual(new Set());
      expect(await q(`?app_id=${otherAppId}`)).toEqual(new Set([a2, b2, c2]));
      expect(await q(`?app_id=${otherAppId}&started_after=${day2}`)).toEqual(new Set([b2, c2]));
      expect(await q(`?updated_after=${importedLaterAt}`)).toEqual(new Set([a2, b2, c2]));
      expect(await q(`?app_id=${f.appId}&updated_after=${importedLaterAt}`)).toEqual(new Set());
      expect(await q(`?app_id=${otherAppId}&updated_after=${importedLaterAt}&started_after=${day2}&started_before=${day3}`)).toEqual(new Set([b2]));
      // Upper case is the same UUID.
      expect(await q(`?app_id=${otherAppId.toUpperCase()}&started_before=${day2}`)).toEqual(new Set([a2]));
    });

    it('rejects malformed or present-empty timestamps with 400 and the spec’s message', async () => {
      const f = await p.fixture();
      // Every malformed form is in test/unit/export-params.test.ts; here, that each filter answers with it.
      const bad = ['', 'yesterday', '2026-01-31T12:00:00', '2026-02-30T12:00:00Z', '2026-01-31T12:00:00.1234567891Z'];
      const cases = ['updated_after', 'started_after', 'started_before'].flatMap((param) => bad.map((value) => [param, value]));
      for (const [param, value] of cases) {
        expectError(await list(f.orgKey, `?${param}=${encodeURIComponent(value!)}`), 400, 'bad_request', timestampMessage(param!));
      }
    });

    it('app_id: malformed is 400 with the spec’s message; an unknown UUID is 200 and empty', async () => {
      const f = await p.fixture();
      await startSession(p.deps, { appId: f.appId });
      for (const value of ['', 'abc', '123e4567e89b12d3a456426614174000', '{123e4567-e89b-12d3-a456-426614174000}', `${f.appId}0`]) {
        expectError(await list(f.orgKey, `?app_id=${encodeURIComponent(value)}`), 400, 'bad_request', APP_ID_MESSAGE);
      }
      const unknown = await list(f.orgKey, '?app_id=123e4567-e89b-12d3-a456-426614174000');
      expect(unknown.status).toBe(200);
      expect(unknown.body.data).toEqual([]);
      expect(unknown.body.pagination).toMatchObject({ has_more: false, limit: 50 });
    });

    it('another org’s app id answers 200 with no rows, no has_more and nothing of that org in the cursor', async () => {
      const mine = await p.fixture();
      const theirs = await p.fixture();
      // More than one post-filtered page can read (8 reads of limit + 2 rows at limit=1).
      const theirIds = await bulkSessions(theirs, 26, 'theirs');
      await startSession(p.deps, { appId: mine.appId });
      for (const query of [`?app_id=${theirs.appId}&limit=1`, `?app_id=${theirs.appId}`, `?app_id=${theirs.appId}&limit=1&started_after=2020-01-01T00:00:00Z`]) {
        const res = await list(mine.orgKey, query);
        expect(res.status, res.text).toBe(200);
        expect(res.body.data, query).toEqual([]);
        expect(res.body.pagination.has_more, query).toBe(false);
        const cursor: string = res.body.pagination.next_cursor;
        const payload = Buffer.from(cursor.split('.')[0]!, 'base64url').toString('utf8');
        for (const id of theirIds) expect(payload).not.toContain(id);
        expect(res.text).not.toContain('theirs');
      }
      // Their own key sees them.
      expect((await list(theirs.orgKey, `?app_id=${theirs.appId}&limit=100`)).body.data).toHaveLength(26);
    });
  });

  describe('limit', () => {
    let f: Awaited<ReturnType<TestPlatform['fixture']>>;
    beforeAll(async () => {
      f = await p.fixture();
      await bulkSessions(f, 101);
    });

    it('defaults to 50 and allows up to 100, with no warning headers', async () => {
      const def = await list(f.orgKey);
      expect(def.body.data).toHaveLength(50);
      expect(def.body.pagination).toMatchObject({ has_more: true, limit: 50 });
      expect(def.headers.get('warning')).toBeNull();
      expect(def.headers.get('x-svc-limit-clamped')).toBeNull();
      const max = await list(f.orgKey, '?limit=100');
      expect(max.body.data).toHaveLength(100);
      expect(max.body.pagination).toMatchObject({ has_more: true, limit: 100 });
      expect(max.headers.get('x-svc-limit-clamped')).toBeNull();
      const one = await list(f.orgKey, '?limit=1');
      expect(one.body.data).toHaveLength(1);
      expect(one.body.pagination.limit).toBe(1);
    });

    it('clamps larger integers to 100 with Warning and X-Svc-Limit-Clamped', async () => {
      for (const requested of ['101', '150', '99999999999999999999']) {
        const res = await list(f.orgKey, `?limit=${requested}`);
        expect(res.status, res.text).toBe(200);
        expect(res.body.data).toHaveLength(100);
        expect(res.body.pagination).toMatchObject({ has_more: true, limit: 100 });
        expect(res.headers.get('x-svc-limit-clamped')).toBe(`requested=${requested},clamped_to=100`);
        expect(res.headers.get('warning')).toMatch(/^299 - ".+"$/);
      }
    });

    it('rejects a malformed limit with 400', async () => {
      for (const value of ['abc', '', '0', '-1', '1.5', '1e2', ' 5', '0x10', '+5']) {
        const res = await list(f.orgKey, `?limit=${encodeURIComponent(value)}`);
        expectError(res, 400, 'bad_request');
        expect(res.body.error.message).toContain('limit');
      }
    });
  });

  describe('strictness', () => {
    it('rejects a parameter given twice with 400', async () => {
      const f = await p.fixture();
      for (const query of [
        '?limit=1&limit=2',
        `?app_id=${f.appId}&app_id=${f.appId}`,
        '?updated_after=2026-01-01T00:00:00Z&updated_after=2026-01-01T00:00:00Z',
        '?started_after=2026-01-01T00:00:00Z&started_after=2026-01-02T00:00:00Z',
        '?started_before=2026-01-01T00:00:00Z&started_before=2026-01-02T00:00:00Z',
      ]) {
        expectError(await list(f.orgKey, query), 400, 'bad_request');
      }
      const page = await list(f.orgKey, '?limit=1');
      const c = encodeURIComponent(page.body.pagination.next_cursor);
      expectError(await list(f.orgKey, `?cursor=${c}&cursor=${c}`), 400, 'bad_request');
    });

    it('rejects an unrecognized parameter with 400 on and after 2026-10-10', async () => {
      const f = await p.fixture();
      for (const query of ['?since=2026-01-01T00:00:00Z', '?foo=1', '?created_after=2026-01-01T00:00:00Z&limit=5', '?Limit=5']) {
        const res = await list(f.orgKey, query);
        expectError(res, 400, 'bad_request');
        expect(res.headers.get('x-svc-unknown-query-params')).toBeNull();
      }
    });
  });

  describe('cursors', () => {
    it('refuses damaged cursors with 400 bad_request, never page one; a retried request returns the same page', async () => {
      const f = await p.fixture();
      for (let i = 0; i < 4; i++) {
        driver.advance(1);
        await startSession(p.deps, { appId: f.appId });
      }
      const first = await list(f.orgKey, '?limit=2');
      const cursor: string = first.body.pagination.next_cursor;
      const second = await list(f.orgKey, `?limit=2&cursor=${encodeURIComponent(cursor)}`);
      expect(second.status).toBe(200);
      expect(await list(f.orgKey, `?limit=2&cursor=${encodeURIComponent(cursor)}`)).toMatchObject({ status: 200, body: second.body });
      expect(await list(f.orgKey, '?limit=2')).toMatchObject({ status: 200, body: first.body });

      for (const forged of forgedCursors(cursor)) {
        const res = await list(f.orgKey, `?limit=2&cursor=${encodeURIComponent(forged.value)}`);
        expect(res.status, forged.name).toBe(400);
        expectError(res, 400, 'bad_request');
      }
    });

    it('refuses a cursor of another org, another endpoint, or other filters', async () => {
      const f = await p.fixture();
      const g = await p.fixture();
      const other = await p.admin('POST', `/orgs/${f.orgId}/apps`, { name: 'Other' });
      for (let i = 0; i < 3; i++) {
        await startSession(p.deps, { appId: f.appId });
        await startSession(p.deps, { appId: g.appId });
      }
      const cursorOf = async (query: string, token = f.orgKey) => {
        const res = await p.call('GET', `${SESSIONS}${query}`, { token });
        expect(res.status, res.text).toBe(200);
        return encodeURIComponent(res.body.pagination.next_cursor as string);
      };
      const plain = await cursorOf('?limit=1');
      const withApp = await cursorOf(`?limit=1&app_id=${f.appId}`);
      const withUpdated = await cursorOf('?limit=1&updated_after=2026-01-01T00:00:00Z');
      const withStarted = await cursorOf('?limit=1&started_after=2026-01-01T00:00:00Z');
      const usageCursor = encodeURIComponent((await p.call('GET', '/api/v1/org/usage?limit=1', { token: f.orgKey })).body.pagination.next_cursor);
      const tombCursor = encodeURIComponent((await p.call('GET', '/api/v1/org/tombstones?limit=1', { token: f.orgKey })).body.pagination.next_cursor);

      const refused: [string, string, string][] = [
        ['another org', `?limit=1&cursor=${plain}`, g.orgKey],
        ['app_id added', `?limit=1&app_id=${f.appId}&cursor=${plain}`, f.orgKey],
        ['app_id changed', `?limit=1&app_id=${other.body.data.id}&cursor=${withApp}`, f.orgKey],
        ['app_id dropped', `?limit=1&cursor=${withApp}`, f.orgKey],
        ['updated_after changed', `?limit=1&updated_after=2026-01-02T00:00:00Z&cursor=${withUpdated}`, f.orgKey],
        ['updated_after dropped', `?limit=1&cursor=${withUpdated}`, f.orgKey],
        ['started_after moved to started_before', `?limit=1&started_before=2026-01-01T00:00:00Z&cursor=${withStarted}`, f.orgKey],
        ['a /usage cursor', `?limit=1&cursor=${usageCursor}`, f.orgKey],
        ['a /tombstones cursor', `?limit=1&cursor=${tombCursor}`, f.orgKey],
      ];
      for (const [name, query, token] of refused) {
        const res = await p.call('GET', `${SESSIONS}${query}`, { token });
        expect(res.status, name).toBe(400);
        expectError(res, 400, 'bad_request');
      }
      // The same filters take the cursor; the page size may change.
      expect((await list(f.orgKey, `?limit=5&app_id=${f.appId}&cursor=${withApp}`)).status).toBe(200);
    });
  });
});

describe('GET /api/v1/org/sessions: visibility delay and stored precision', () => {
  const START = '2026-11-02T12:00:00.000Z';
  const clock = new TestClock(START, false);
  const driver = new ClockDriver(clock, START);
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform({ clock, visibilityDelayMs: 5000 });
  });
  afterAll(() => p.stop());

  it('hides a session whose last activity is newer than now − VISIBILITY_DELAY_MS until the clock passes it', async () => {
    const f = await p.fixture();
    driver.stepMs(1000);
    const s = await startSession(p.deps, { appId: f.appId });
    const ids = async () => idsOf(await p.call('GET', SESSIONS, { token: f.orgKey }));
    expect(await ids()).toEqual([]);
    driver.advance(4999);
    expect(await ids()).toEqual([]);
    driver.advance(1);
    expect(await ids()).toEqual([s.id]);

    // New activity moves the row above the cutoff: it leaves the list until the delay has passed again.
    const t = await startSession(p.deps, { appId: f.appId });
    driver.advance(6000);
    expect(await ids()).toEqual([t.id, s.id]);
    await appendToSession(p.deps, { sessionId: s.id, messages: [{ role: 'user', content: 'later' }] });
    expect(await ids()).toEqual([t.id]);
    driver.advance(6000);
    expect(await ids()).toEqual([s.id, t.id]);
  });

  it('shows stored microseconds floored to the millisecond, never rounded up', async () => {
    const f = await p.fixture();
    const targetUs = driver.msAhead(60_000) + 999;
    driver.jumpTo(targetUs);
    const s = await startSession(p.deps, { appId: f.appId });
    // The premise: the stored values end in .xxx999 (rounding would show the next millisecond).
    const stored = (await p.deps.sessions.get(s.id))!;
    expect([stored.startedAtUs, stored.touchedAtUs]).toEqual([targetUs, targetUs]);
    driver.advance(6000);
    const floored = new Date(Math.floor(targetUs / 1000)).toISOString();
    const res = await p.call('GET', SESSIONS, { token: f.orgKey });
    expect(res.body.data).toEqual([expect.objectContaining({ id: s.id, started_at: floored, ended_at: floored, last_activity_at: floored })]);
  });
});

describe('GET /api/v1/org/sessions: unrecognized parameters around 2026-10-10', () => {
  const START = '2026-10-09T23:59:59.000Z';
  const clock = new TestClock(START, false);
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform({ clock, visibilityDelayMs: 0 });
  });
  afterAll(() => p.stop());

  it('answers 200 with legacy unfiltered rows and warning headers before the date, 400 from it', async () => {
    const f = await p.fixture();
    for (let i = 0; i < 3; i++) await startSession(p.deps, { appId: f.appId });
    const plain = await p.call('GET', SESSIONS, { token: f.orgKey });
    expect(plain.body.data).toHaveLength(3);

    const legacy = await p.call('GET', `${SESSIONS}?since=2099-01-01T00:00:00Z&foo=`, { token: f.orgKey });
    expect(legacy.status, legacy.text).toBe(200);
    expect(legacy.body.data).toEqual(plain.body.data);
    expect(legacy.headers.get('x-svc-unknown-query-params')).toBe('since,foo');
    expect(legacy.headers.get('warning')).toMatch(/^299 - ".*since.*"$/);

    // Recognized parameters still apply and are still validated.
    const filtered = await p.call('GET', `${SESSIONS}?foo=1&limit=1`, { token: f.orgKey });
    expect(filtered.body.data).toHaveLength(1);
    expectError(await p.call('GET', `${SESSIONS}?foo=1&updated_after=nope`, { token: f.orgKey }), 400, 'bad_request', timestampMessage('updated_after'));

    // Both warnings survive when a clamped limit meets an unrecognized parameter.
    const both = await p.call('GET', `${SESSIONS}?foo=1&limit=500`, { token: f.orgKey });
    expect(both.status).toBe(200);
    expect(both.headers.get('x-svc-unknown-query-params')).toBe('foo');
    expect(both.headers.get('x-svc-limit-clamped')).toBe('requested=500,clamped_to=100');
    expect(both.headers.get('warning')).toContain('foo');
    expect(both.headers.get('warning')).toContain('500');

    clock.advance(999); // 23:59:59.999
    expect((await p.call('GET', `${SESSIONS}?foo=1`, { token: f.orgKey })).status).toBe(200);
    clock.advance(1); // 2026-10-10T00:00:00.000Z
    const rejected = await p.call('GET', `${SESSIONS}?foo=1`, { token: f.orgKey });
    expectError(rejected, 400, 'bad_request');
    expect(rejected.body.error.message).toContain('foo');
    expect(rejected.headers.get('warning')).toBeNull();
    expect((await p.call('GET', SESSIONS, { token: f.orgKey })).status).toBe(200);
  });
});
