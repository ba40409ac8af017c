/**
 * GET /api/v1/org/sessions: the rules every list shares (keys, limit, repeated and unrecognized
 * parameters, cursors, timestamp syntax, the visibility delay and stored precision) come from
 * test/support/export-routes.ts; this file adds what only this list does: its fields, its order by last
 * activity, its filters.
 */
import { describe, expect, it } from 'vitest';
import { appendToSession, deleteMessage, editMessage, renameSession, startSession } from '../../functions/chat/app/record-session-activity';
import type { Session } from '../../functions/conversations/domain/session';
import { APP_ID_MESSAGE, ISO_MS, descending, expectError, idsOf, pageThrough, pinnedPlatform, putSession, shownUs } from '../support/export-api';
import { SESSIONS_ROUTE, exportRouteRules } from '../support/export-routes';
import { seedSessions } from '../support/imports';
import type { Fixture, TestPlatform } from '../support/platform';

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

const lastActivityUs = (s: Session) => Math.max(s.lastMessageAtUs ?? s.startedAtUs, s.touchedAtUs);

describe('GET /api/v1/org/sessions', () => {
  let p: TestPlatform;
  // Pinned: time moves only by `advance` (plus one microsecond per reading), so rows can share a
  // millisecond or sit on an exact microsecond.
  const driver = pinnedPlatform('2026-11-02T10:00:00.000Z', { visibilityDelayMs: 0 }, (started) => (p = started));

  const list = (token: string, query = '') => p.call('GET', `${SESSIONS}${query}`, { token });
  const stored = async (id: string) => (await p.deps.sessions.get(id))!;
  /** Sessions written straight through the session store: cheap bulk rows for the page-size tests. */
  const bulkSessions = (f: Fixture, n: number, title = ''): Promise<string[]> =>
    Promise.all(Array.from({ length: n }, async () => (await putSession(p, f, p.deps.clock.nowUs(), title)).id));
  /** The order the spec demands, from the stored values: last activity (µs) descending, then id descending. */
  const specOrder = async (ids: readonly string[]) => {
    const sessions = await Promise.all(ids.map(stored));
    return sessions.sort((a, b) => lastActivityUs(b) - lastActivityUs(a) || descending(a.id, b.id)).map((s) => s.id);
  };

  exportRouteRules(SESSIONS_ROUTE, () => p);

  describe('fields', () => {
    it('lists each session with exactly the spec’s fields and types, consumer email included', async () => {
      const f = await p.fixture();
      const [imported] = await seedSessions(p, f.appId, [
        { email: 'ada@example.com', startedAt: '2026-03-04T05:06:07.891Z', messages: ['2026-03-04T05:06:08.000Z'] },
      ]);
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
      expect(byId.get(bare.id)).toMatchObject({
        consumer_id: null,
        consumer_email: null,
        external_id: null,
        query_params: [],
        title: '',
        last_message_at: null,
      });
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
      const checkpoint = [...first.body.data, ...rest.flatMap((pg) => pg.data)]
        .map((r: { last_activity_at: string }) => r.last_activity_at)
        .sort()
        .pop();
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
      const expected = [...made].sort(descending);

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
        expect(
          pages.flatMap((pg) => pg.data.map((r: { id: string }) => r.id)),
          `limit ${limit}`,
        ).toEqual(expected);
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

    it('started_after is inclusive, started_before exclusive; all filters combine with AND', async () => {
      const f = await p.fixture();
      const other = await p.admin('POST', `/orgs/${f.orgId}/apps`, { name: 'Other' });
      const otherAppId: string = other.body.data.id;
      const days = ['2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z', '2026-01-03T00:00:00.000Z'];
      driver.stepMs(10);
      const [a1, b1, c1] = await seedSessions(
        p,
        f.appId,
        days.map((startedAt) => ({ startedAt })),
      );
      const importedLaterAt = shownUs(driver.stepMs(10));
      const [a2, b2, c2] = await seedSessions(
        p,
        otherAppId,
        days.map((startedAt) => ({ startedAt })),
      );
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
      for (const query of [
        `?app_id=${theirs.appId}&limit=1`,
        `?app_id=${theirs.appId}`,
        `?app_id=${theirs.appId}&limit=1&started_after=2020-01-01T00:00:00Z`,
      ]) {
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
});
