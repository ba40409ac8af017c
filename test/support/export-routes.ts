/**
 * The rules every Org Export route (area A) shares, written once: a table of the routes (their scope,
 * parameters and filters, how to write their rows) and `exportRouteRules`, which registers the tests of
 * those rules in the route's own test file: keys and scopes, unrecognized and repeated parameters, the
 * cut-off date of 2026-10-10, and for the three lists limit, cursors, timestamp filters, the visibility
 * delay and stored precision. Each route's file adds only what that route alone does.
 *
 * The rules run in the routes' own files rather than in one test file of their own: a further test file
 * costs a worker, the platform's imports and a platform warm-up (about two seconds of CPU for the set).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { deleteSession } from '../../functions/conversations/app/delete-resources';
import { appendToSession, startSession } from '../../functions/chat/app/record-session-activity';
import {
  ALL_SCOPES,
  expectError,
  forgedCursors,
  idsOf,
  newKey,
  pinnedPlatform,
  putSession,
  putTombstone,
  putUsageRow,
  shownUs,
  timestampMessage,
  turnUsage,
} from './export-api';
import type { Fixture, TestPlatform } from './platform';

const T1 = '2026-01-01T00:00:00Z';
const T2 = '2026-01-02T00:00:00Z';
/** After every row a test writes: a `started_before` value under which the rows are listed. */
const LATER1 = '2099-01-01T00:00:00Z';
const LATER2 = '2099-01-02T00:00:00Z';
const messagesPath = (sessionId: string) => `/api/v1/org/sessions/${sessionId}/messages`;

export interface Route {
  /** The route as the spec names it. */
  readonly name: string;
  readonly scope: (typeof ALL_SCOPES)[number];
  /**
   * Writes `n` rows of the fixture's org (messages: a session with `n` messages), shown at once on a
   * zero-delay platform, and returns the path that shows them.
   */
  seed(p: TestPlatform, f: Fixture, n: number): Promise<string>;
  /** Unrecognized here (other routes' parameters among them), with the name the 400 gives. */
  readonly unknown: readonly (readonly [query: string, name: string])[];
  /** Unrecognized names and, before the cut-off, the X-Svc-Unknown-Query-Params value naming them. */
  readonly legacy: { readonly query: string; readonly header: string };
  /** An unrecognized parameter next to a malformed recognized one: a 400 even before the cut-off. */
  readonly malformed: { readonly query: string; readonly message?: string };
}

/** One row written through the app (the platform's own stamping) by a list route's `writeOne`. */
export interface Written {
  readonly id: string | number;
  /** Every stored time of the row that the list shows. */
  readonly storedUs: readonly number[];
  /** The row as the list must show it when its times are shown as `at`. */
  listedAs(at: string): unknown;
}

export interface ListRoute extends Route {
  readonly path: string;
  /**
   * Each filter with two distinct valid values (a cursor is bound to the filters' values). The first
   * value must list the seeded rows, so that the cursor bound to it stands mid-list.
   */
  filters(apps: { appId: string; otherAppId: string }): Record<string, readonly [string, string]>;
  /** Filters of one type: a value moved from the first to the second must not take the cursor either. */
  readonly moved?: readonly [from: string, to: string];
  /** The filters that take an ISO 8601 timestamp. */
  readonly timestampFilters: readonly string[];
  /** Writes what one row needs (its session) and returns the write of the row itself, through the app. */
  writeOne(p: TestPlatform, f: Fixture): Promise<() => Promise<Written>>;
  /** How many clock readings that write takes before the one that stamps the row. */
  readonly lead: number;
  /** For rows that can gain activity (sessions): new activity on the row `id`. */
  gainActivity?(p: TestPlatform, id: string): Promise<void>;
}

const nowUs = (p: TestPlatform) => p.deps.clock.nowUs();
const times = <T>(n: number, make: () => Promise<T>) => Promise.all(Array.from({ length: n }, make));

export const SESSIONS_ROUTE: ListRoute = {
  name: '/api/v1/org/sessions',
  path: '/api/v1/org/sessions',
  scope: 'transcripts:read',
  seed: async (p, f, n) => {
    await times(n, () => putSession(p, f, nowUs(p)));
    return SESSIONS_ROUTE.path;
  },
  unknown: [
    [`?since=${T1}`, 'since'],
    [`?created_after=${T1}&limit=5`, 'created_after'],
  ],
  legacy: { query: '?since=2099-01-01T00:00:00Z&foo=', header: 'since,foo' },
  malformed: { query: '?foo=1&updated_after=nope', message: timestampMessage('updated_after') },
  filters: ({ appId, otherAppId }) => ({ app_id: [appId, otherAppId], updated_after: [T1, T2], started_after: [T1, T2], started_before: [LATER1, LATER2] }),
  moved: ['started_after', 'started_before'],
  timestampFilters: ['updated_after', 'started_after', 'started_before'],
  lead: 0,
  writeOne: async (p, f) => async () => {
    const s = await startSession(p.deps, { appId: f.appId });
    const stored = (await p.deps.sessions.get(s.id))!;
    return {
      id: s.id,
      storedUs: [stored.startedAtUs, stored.touchedAtUs],
      listedAs: (at) => expect.objectContaining({ id: s.id, started_at: at, ended_at: at, last_activity_at: at }),
    };
  },
  gainActivity: async (p, id) => {
    await appendToSession(p.deps, { sessionId: id, messages: [{ role: 'user', content: 'later' }] });
  },
};

export const USAGE_ROUTE: ListRoute = {
  name: '/api/v1/org/usage',
  path: '/api/v1/org/usage',
  scope: 'usage:read',
  seed: async (p, f, n) => {
    await times(n, () => putUsageRow(p, f, nowUs(p)));
    return USAGE_ROUTE.path;
  },
  unknown: [
    [`?created_after=${T1}`, 'created_after'],
    [`?updated_after=${T1}`, 'updated_after'],
    ['?cause=app_deleted', 'cause'],
  ],
  legacy: { query: '?created_after=2099-01-01T00:00:00Z', header: 'created_after' },
  malformed: { query: '?created_after=x&since=', message: timestampMessage('since') },
  filters: () => ({ since: [T1, T2] }),
  timestampFilters: ['since'],
  // appendToSession reads the clock once for its touch, then once per usage row.
  lead: 1,
  writeOne: async (p, f) => {
    const s = await startSession(p.deps, { appId: f.appId });
    return async () => {
      const row = (await appendToSession(p.deps, { sessionId: s.id, messages: [], usage: [turnUsage(1)] })).usage[0]!;
      return { id: row.id, storedUs: [row.createdAtUs], listedAs: (at) => expect.objectContaining({ id: row.id, created_at: at }) };
    };
  },
};

export const TOMBSTONES_ROUTE: ListRoute = {
  name: '/api/v1/org/tombstones',
  path: '/api/v1/org/tombstones',
  scope: 'tombstones:read',
  seed: async (p, f, n) => {
    await times(n, () => putTombstone(p, f.orgId, nowUs(p)));
    return TOMBSTONES_ROUTE.path;
  },
  unknown: [
    [`?since=${T1}`, 'since'],
    ['?resource_type=session', 'resource_type'],
  ],
  legacy: { query: '?resource_type=consumer&since=2099-01-01T00:00:00Z', header: 'resource_type,since' },
  malformed: { query: '?foo=1&cause=' },
  // The seeded rows are consumer_deleted tombstones (putTombstone's default).
  filters: () => ({ cause: ['consumer_deleted', 'app_deleted'] }),
  timestampFilters: [],
  lead: 0,
  writeOne: async (p, f) => {
    const s = await startSession(p.deps, { appId: f.appId });
    return async () => {
      const t = await deleteSession(p.deps, { sessionId: s.id });
      return {
        id: t.id,
        storedUs: [t.deletedAtUs],
        listedAs: (at) => ({ id: t.id, resource_type: 'session', resource_id: s.id, cause: 'consumer_deleted', deleted_at: at }),
      };
    };
  },
};

export const MESSAGES_ROUTE: Route = {
  name: '/api/v1/org/sessions/{sessionId}/messages',
  scope: 'transcripts:read',
  seed: async (p, f, n) => {
    const s = await startSession(p.deps, { appId: f.appId });
    if (n > 0)
      await appendToSession(p.deps, { sessionId: s.id, messages: Array.from({ length: n }, (_, i) => ({ role: 'user' as const, content: `message ${i}` })) });
    return messagesPath(s.id);
  },
  unknown: [
    ['?limit=10', 'limit'],
    [`?include=tool_details&since=${T1}`, 'since'],
  ],
  legacy: { query: '?limit=1&cursor=abc', header: 'limit,cursor' },
  malformed: { query: '?foo=1&include=bogus' },
};

const LISTS: readonly ListRoute[] = [SESSIONS_ROUTE, USAGE_ROUTE, TOMBSTONES_ROUTE];
const isList = (route: Route): route is ListRoute => 'path' in route;
/** Unrecognized on every route. */
const UNKNOWN_EVERYWHERE = [
  ['?foo=1', 'foo'],
  ['?Limit=5', 'Limit'],
] as const;
/** A well-formed org key that was never issued. */
const UNISSUED_KEY = `svc_org_${'x'.repeat(43)}`;
const CUT_OFF_US = Date.parse('2026-10-10T00:00:00.000Z') * 1000;

/**
 * Registers the shared rules for `route` in the enclosing describe; `main` is the file's platform (on a
 * pinned clock after 2026-10-10, with no visibility delay).
 */
export function exportRouteRules(route: Route, main: () => TestPlatform): void {
  describe(isList(route) ? 'rules of every list' : 'rules of every route', () => {
    /**
     * Orgs of tests that only read: `org` holds the route's rows (a list's 101, and a second app),
     * `otherOrg` none. Tests other than the list's own take fresh keys, as a key's calls all fall in one
     * rate-limit minute on the pinned clock (about 65 of the 120 for the sessions list's key).
     */
    let org: Fixture;
    let otherOrg: Fixture;
    let path: string;
    let apps: { appId: string; otherAppId: string };
    beforeAll(async () => {
      const p = main();
      org = await p.fixture();
      path = await route.seed(p, org, isList(route) ? 101 : 0);
      if (!isList(route)) return;
      otherOrg = await p.fixture();
      const other = await p.admin('POST', `/orgs/${org.orgId}/apps`, { name: 'Other' });
      expect(other.status, other.text).toBe(201);
      apps = { appId: org.appId, otherAppId: other.body.data.id };
    });

    describe('keys and scopes', () => {
      it(`answers 401 to a missing or invalid key and 403 to a key without ${route.scope}`, async () => {
        const p = main();
        const withoutScope = await newKey(
          p,
          org.orgId,
          ALL_SCOPES.filter((s) => s !== route.scope),
        );
        for (const res of [
          await p.call('GET', path),
          await p.call('GET', path, { token: UNISSUED_KEY }),
          await p.call('GET', path, { token: `${withoutScope}x` }),
          await p.call('GET', path, { headers: { Authorization: `Basic ${withoutScope}` } }),
        ]) {
          expectError(res, 401);
        }
        const forbidden = await p.call('GET', path, { token: withoutScope });
        expectError(forbidden, 403);
        expect(forbidden.body.error.message).toContain(route.scope);
        expect((await p.call('GET', path, { token: await newKey(p, org.orgId, [route.scope]) })).status).toBe(200);
      });
    });

    describe('strictness', () => {
      it('rejects an unrecognized parameter with 400 on and after 2026-10-10, naming it, without the legacy headers', async () => {
        const p = main();
        const token = await newKey(p, org.orgId);
        for (const [query, name] of [...UNKNOWN_EVERYWHERE, ...route.unknown]) {
          const res = await p.call('GET', `${path}${query}`, { token });
          expectError(res, 400, 'bad_request', `Unrecognized query parameter: ${name}`);
          expect(res.headers.get('x-svc-unknown-query-params'), query).toBeNull();
          expect(res.headers.get('warning'), query).toBeNull();
        }
      });

      if (isList(route)) {
        it('rejects a parameter given twice with 400, with the same or another value', async () => {
          const list = listOf(main(), route, org);
          const params = { limit: ['1', '2'] as const, ...route.filters(apps) };
          for (const [name, [a, b]] of Object.entries(params)) {
            for (const query of [`?${name}=${a}&${name}=${a}`, `?${name}=${a}&${name}=${b}`]) expectError(await list(query), 400, 'bad_request');
          }
          const c = await cursorOf(main(), route.path, '?limit=1', org.orgKey);
          expectError(await list(`?cursor=${c}&cursor=${c}`), 400, 'bad_request');
        });
      }
    });

    if (isList(route)) {
      describe('limit', () => {
        it('defaults to 50 and allows up to 100, with no warning headers', async () => {
          const list = listOf(main(), route, org);
          const def = await list();
          expect(def.body.data).toHaveLength(50);
          expect(def.body.pagination).toMatchObject({ has_more: true, limit: 50 });
          expect(def.headers.get('warning')).toBeNull();
          expect(def.headers.get('x-svc-limit-clamped')).toBeNull();
          const max = await list('?limit=100');
          expect(max.body.data).toHaveLength(100);
          expect(max.body.pagination).toMatchObject({ has_more: true, limit: 100 });
          expect(max.headers.get('warning')).toBeNull();
          expect(max.headers.get('x-svc-limit-clamped')).toBeNull();
          const one = await list('?limit=1');
          expect(one.body.data).toHaveLength(1);
          expect(one.body.pagination.limit).toBe(1);
        });

        it('clamps larger integers to 100 with Warning and X-Svc-Limit-Clamped', async () => {
          const list = listOf(main(), route, org);
          for (const requested of ['101', '150', '99999999999999999999']) {
            const res = await list(`?limit=${requested}`);
            expect(res.status, res.text).toBe(200);
            expect(res.body.data).toHaveLength(100);
            expect(res.body.pagination).toMatchObject({ has_more: true, limit: 100 });
            expect(res.headers.get('x-svc-limit-clamped')).toBe(`requested=${requested},clamped_to=100`);
            expect(res.headers.get('warning')).toMatch(/^299 - ".+"$/);
          }
        });

        it('rejects a malformed limit with 400', async () => {
          const list = listOf(main(), route, org);
          for (const value of ['abc', '', '0', '-1', '1.5', '1e2', ' 5', '0x10', '+5']) {
            const res = await list(`?limit=${encodeURIComponent(value)}`);
            expectError(res, 400, 'bad_request');
            expect(res.body.error.message).toContain('limit');
          }
        });
      });

      describe('cursors', () => {
        it('refuses damaged cursors with 400 bad_request, never page one; a retried request returns the same page', async () => {
          const list = listOf(main(), route, org);
          const first = await list('?limit=2');
          const cursor: string = first.body.pagination.next_cursor;
          const second = await list(`?limit=2&cursor=${encodeURIComponent(cursor)}`);
          expect(second.status).toBe(200);
          expect(idsOf(second)).not.toEqual(idsOf(first));
          // No side effects: the same request answers the same page.
          expect(await list(`?limit=2&cursor=${encodeURIComponent(cursor)}`)).toMatchObject({ status: 200, body: second.body });
          expect(await list('?limit=2')).toMatchObject({ status: 200, body: first.body });

          for (const forged of forgedCursors(cursor)) {
            const res = await list(`?limit=2&cursor=${encodeURIComponent(forged.value)}`);
            expect(res.status, forged.name).toBe(400);
            expectError(res, 400, 'bad_request');
          }
        });

        it('refuses a cursor of another org, another endpoint, or other filters; the same filters take it at another page size', async () => {
          const p = main();
          const plain = await cursorOf(p, route.path, '?limit=2', org.orgKey);
          const refused: [string, string, string][] = [['another org', `?limit=2&cursor=${plain}`, otherOrg.orgKey]];
          for (const other of LISTS.filter((r) => r !== route)) {
            refused.push([`a ${other.name} cursor`, `?limit=2&cursor=${await cursorOf(p, other.path, '?limit=1', org.orgKey)}`, org.orgKey]);
          }
          const accepted: [query: string, boundIds: (string | number)[]][] = [];
          for (const [name, [a, b]] of Object.entries(route.filters(apps))) {
            // A mid-list position (the filtered page has more), as a client holds one during a pass.
            const boundPage = await p.call('GET', `${route.path}?limit=1&${name}=${a}`, { token: org.orgKey });
            expect(boundPage.status, boundPage.text).toBe(200);
            expect(boundPage.body.pagination.has_more, `${name}=${a} lists the seeded rows`).toBe(true);
            const bound = encodeURIComponent(boundPage.body.pagination.next_cursor as string);
            refused.push(
              [`${name} added`, `?limit=2&${name}=${a}&cursor=${plain}`, org.orgKey],
              [`${name} changed`, `?limit=2&${name}=${b}&cursor=${bound}`, org.orgKey],
              [`${name} dropped`, `?limit=2&cursor=${bound}`, org.orgKey],
            );
            if (route.moved?.[0] === name) refused.push([`${name} moved to ${route.moved[1]}`, `?limit=2&${route.moved[1]}=${a}&cursor=${bound}`, org.orgKey]);
            accepted.push([`?limit=5&${name}=${a}&cursor=${bound}`, idsOf<string | number>(boundPage)]);
          }
          for (const [name, query, token] of refused) {
            const res = await p.call('GET', `${route.path}${query}`, { token });
            expect(res.status, name).toBe(400);
            expectError(res, 400, 'bad_request');
          }
          // The same filters take the cursor at another page size, and the page continues after it.
          for (const [query, boundIds] of accepted) {
            const res = await p.call('GET', `${route.path}${query}`, { token: org.orgKey });
            expect(res.status, `${query}: ${res.text}`).toBe(200);
            expect(res.body.data.length, query).toBeGreaterThan(0);
            for (const id of boundIds) expect(idsOf<string | number>(res), query).not.toContain(id);
          }
        });
      });

      if (route.timestampFilters.length > 0) {
        describe('timestamp filters', () => {
          it(`accept Z, offsets and fractions of 1 to 9 digits (${route.timestampFilters.join(', ')})`, async () => {
            const p = main();
            const token = await newKey(p, otherOrg.orgId);
            // Every form is in test/unit/export-params.test.ts; here, that each filter takes them. One
            // request gives a value to every filter at once: any filter refusing it fails the request.
            const fractions = ['.1', '.12', '.123', '.1234', '.12345', '.123456', '.1234567', '.12345678', '.123456789'].map(
              (frac) => `2026-01-31T12:00:00${frac}Z`,
            );
            for (const value of ['2026-01-31T12:00:00Z', '2026-01-31T12:00:00+02:00', '2026-01-31T12:00:00.1234567-05:30', ...fractions]) {
              const query = route.timestampFilters.map((param) => `${param}=${encodeURIComponent(value)}`).join('&');
              const res = await p.call('GET', `${route.path}?${query}`, { token });
              expect(res.status, `${query}: ${res.text}`).toBe(200);
            }
          });

          it('reject malformed or present-empty timestamps with 400 and the spec’s message', async () => {
            const p = main();
            const token = await newKey(p, otherOrg.orgId);
            // Every malformed form is in test/unit/export-params.test.ts; here, that each filter answers with it.
            const bad = [
              '',
              'now',
              'yesterday',
              '2026-01-31',
              '2026-01-31T12:00:00',
              '2026-02-30T12:00:00Z',
              '2026-13-01T00:00:00Z',
              '2026-01-31T12:00:00.1234567891Z',
              '2026-01-31T12:00:00+0200',
            ];
            for (const param of route.timestampFilters) {
              for (const value of bad) {
                expectError(await p.call('GET', `${route.path}?${param}=${encodeURIComponent(value)}`, { token }), 400, 'bad_request', timestampMessage(param));
              }
            }
          });
        });
      }
    }

    /**
     * The cut-off date and the visibility delay share a platform of their own, VISIBILITY_DELAY_MS 5000 on
     * a clock that starts ten seconds before 2026-10-10 (the delay's tests only move it further).
     */
    let p: TestPlatform;
    const driver = pinnedPlatform('2026-10-09T23:59:50.000Z', { visibilityDelayMs: 5000 }, (started) => (p = started));

    describe('unrecognized parameters around 2026-10-10', () => {
      /** Three rows, written before any test moves the clock and listed from 23:59:56 on. */
      let token: string;
      let rows: string;
      beforeAll(async () => {
        const f = await p.fixture();
        token = f.orgKey;
        rows = await route.seed(p, f, 3);
        driver.jumpTo(CUT_OFF_US - 4_000_000);
      });
      const get = (query = '') => p.call('GET', `${rows}${query}`, { token });

      describe('before the date', () => {
        it('answers 200 with the rows unfiltered, naming the parameters in X-Svc-Unknown-Query-Params and Warning', async () => {
          const plain = await get();
          expect(plain.status, plain.text).toBe(200);
          expect(isList(route) ? plain.body.data : plain.body.data.messages).toHaveLength(3);

          const legacy = await get(route.legacy.query);
          expect(legacy.status, legacy.text).toBe(200);
          expect(legacy.body).toEqual(plain.body);
          expect(legacy.headers.get('x-svc-unknown-query-params')).toBe(route.legacy.header);
          const names = route.legacy.header.split(',');
          expect(legacy.headers.get('warning')).toMatch(new RegExp(`^299 - ".*${names[0]}.*"$`));
          for (const name of names) expect(legacy.headers.get('warning')).toContain(name);

          // Recognized parameters are still validated.
          expectError(await get(route.malformed.query), 400, 'bad_request', route.malformed.message);
        });

        if (isList(route)) {
          it('still applies recognized parameters, and a clamped limit keeps its own headers', async () => {
            expect((await get('?foo=1&limit=1')).body.data).toHaveLength(1);
            const both = await get('?foo=1&limit=500');
            expect(both.status).toBe(200);
            expect(both.headers.get('x-svc-unknown-query-params')).toBe('foo');
            expect(both.headers.get('x-svc-limit-clamped')).toBe('requested=500,clamped_to=100');
            expect(both.headers.get('warning')).toContain('foo');
            expect(both.headers.get('warning')).toContain('500');
          });
        }
      });

      it('still answers 200 at 23:59:59.999', async () => {
        driver.jumpTo(CUT_OFF_US - 1000);
        for (const query of ['?foo=1', route.legacy.query]) expect((await get(query)).status, query).toBe(200);
      });

      it('answers 400 naming the parameters, without Warning, from 2026-10-10T00:00:00.000Z', async () => {
        driver.jumpTo(CUT_OFF_US);
        const rejected = await get('?foo=1');
        expectError(rejected, 400, 'bad_request');
        expect(rejected.body.error.message).toContain('foo');
        expect(rejected.headers.get('warning')).toBeNull();
        const legacy = await get(route.legacy.query);
        expectError(legacy, 400, 'bad_request');
        for (const name of route.legacy.header.split(',')) expect(legacy.body.error.message).toContain(name);
        expect((await get()).status).toBe(200);
      });
    });

    if (isList(route)) {
      describe('visibility delay and stored precision', () => {
        const ids = async (f: Fixture) => idsOf<string | number>(await p.call('GET', route.path, { token: f.orgKey }));

        it('hides a row newer than now − VISIBILITY_DELAY_MS until the clock passes it', async () => {
          const f = await p.fixture();
          const write = await route.writeOne(p, f);
          driver.stepMs(1000);
          const { id } = await write();
          expect(await ids(f)).toEqual([]);
          driver.advance(4999);
          expect(await ids(f)).toEqual([]);
          driver.advance(1);
          expect(await ids(f)).toEqual([id]);
        });

        if (route.gainActivity) {
          const gainActivity = route.gainActivity;
          it('hides a row again while its new activity is newer than now − VISIBILITY_DELAY_MS, then lists it on top', async () => {
            const f = await p.fixture();
            const s = await (await route.writeOne(p, f))();
            const t = await (await route.writeOne(p, f))();
            driver.advance(6000);
            expect(await ids(f)).toEqual([t.id, s.id]);
            // New activity moves the row above the cutoff: it leaves the list until the delay has passed again.
            await gainActivity(p, String(s.id));
            expect(await ids(f)).toEqual([t.id]);
            driver.advance(6000);
            expect(await ids(f)).toEqual([s.id, t.id]);
          });
        }

        it('shows a row stamped at .xxx999 µs under the lower millisecond, never rounded up', async () => {
          const f = await p.fixture();
          const write = await route.writeOne(p, f);
          const stampUs = driver.msAhead(60_000) + 999;
          driver.jumpTo(stampUs - route.lead);
          const row = await write();
          // The premise: the stored values end in .xxx999 (rounding would show the next millisecond).
          for (const us of row.storedUs) expect(us).toBe(stampUs);
          driver.advance(6000);
          const res = await p.call('GET', route.path, { token: f.orgKey });
          expect(res.body.data).toEqual([row.listedAs(shownUs(stampUs))]);
        });
      });
    }
  });
}

/** GETs the route's list with the org's key. */
const listOf =
  (p: TestPlatform, route: ListRoute, org: Fixture) =>
  (query = '') =>
    p.call('GET', `${route.path}${query}`, { token: org.orgKey });

/** The next_cursor of a page, URL-encoded. */
async function cursorOf(p: TestPlatform, path: string, query: string, token: string): Promise<string> {
  const res = await p.call('GET', `${path}${query}`, { token });
  expect(res.status, res.text).toBe(200);
  return encodeURIComponent(res.body.pagination.next_cursor as string);
}
