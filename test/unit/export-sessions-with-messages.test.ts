/**
 * exportSessionsWithMessages (functions/export/app/export-lists.ts) over small fake deps and a tiny
 * byte budget: a session gone since the index read leaves the page without moving the cursor off its
 * position, a page cut by the budget continues right after its last row, a row alone over the budget
 * comes with messages null, Zero Data Retention apps, and transcripts read at most 16 at once.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { exportSessionsWithMessages, type PageBudget } from '../../functions/export/app/export-lists';
import type { SessionWithMessages } from '../../functions/export/domain/export-rows';
import { decodeCursor, type CursorBinding, type KeysetPosition } from '../../functions/export/domain/cursor';
import { lastActivityOf, type Message, type Session } from '../../functions/conversations/domain/session';
import type { KeysetPage, KeysetWindow } from '../../functions/export/app/export-ports';

const ORG = 'org-1';
const APP = 'app-plain';
const ZDR_APP = 'app-zdr';
const NOW_US = 1_800_000_000_000_000;
const KEY = randomBytes(32);
const BINDING: CursorBinding = { endpoint: 'sessions', orgId: ORG, filters: { app_id: null, updated_after: null, started_after: null, started_before: null } };

type Deps = Parameters<typeof exportSessionsWithMessages>[0];

/** A session whose last activity is `activityUs`, reached by its last message or by its touch clock. */
function session(id: string, activityUs: number, appId = APP): Session {
  const byMessage = activityUs % 2 === 0;
  return {
    id,
    orgId: ORG,
    appId,
    consumerId: null,
    consumerEmail: null,
    title: id,
    source: 'APP',
    externalId: null,
    queryParams: [],
    startedAtUs: activityUs - 10_000,
    lastMessageAtUs: byMessage ? activityUs : activityUs - 5_000,
    touchedAtUs: byMessage ? activityUs - 1_000 : activityUs,
  };
}

/** `weights[i]` characters of content in one message; none for 0. */
const messagesOf = (sessionId: string, weight: number): Message[] =>
  weight === 0 ? [] : [{ id: `${sessionId}-m`, sessionId, role: 'user', content: 'x'.repeat(weight), createdAtUs: 1 }];

/** A row's weight: 1 plus its content characters (1 for messages null). */
const BUDGET = (maxBytes: number): PageBudget => ({
  maxBytes,
  sizeOf: (row: SessionWithMessages) => 1 + (row.messages ?? []).reduce((sum, m) => sum + m.content.length, 0),
});

interface World {
  readonly deps: Deps;
  /** Transcript reads in flight at most, at any moment. */
  readonly maxInFlight: () => number;
  readonly reads: string[];
}

/**
 * Fake deps: the index holds `sessions` by (lastActivityOf, id) descending; `weights` gives each
 * session's transcript (undefined: gone since the index read).
 */
function world(sessions: readonly Session[], weights: Readonly<Record<string, number | undefined>>, zdrApps: readonly string[] = []): World {
  const sorted = [...sessions].sort((a, b) => lastActivityOf(b) - lastActivityOf(a) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const below = (s: Session, after: KeysetPosition) => lastActivityOf(s) < after.sortUs || (lastActivityOf(s) === after.sortUs && s.id < after.id);
  let inFlight = 0;
  let max = 0;
  const reads: string[] = [];
  const deps = {
    keys: { cursorKey: async () => KEY },
    clock: { nowUs: () => NOW_US },
    settings: { visibilityDelayMs: 0 },
    apps: {
      get: async (id: string) => ({ id, orgId: ORG, settings: { zeroDataRetention: zdrApps.includes(id) } }),
    },
    exportReader: {
      sessions: async (_org: string, window: KeysetWindow): Promise<KeysetPage<Session>> => {
        const candidates = sorted.filter((s) => lastActivityOf(s) <= window.upperUs && (!window.after || below(s, window.after)));
        const rows = candidates.slice(0, window.limit);
        const last = rows[rows.length - 1];
        return {
          rows,
          hasMore: candidates.length > rows.length,
          ...(last ? { last: { sortUs: lastActivityOf(last), id: last.id } } : window.after ? { last: window.after } : {}),
        };
      },
    },
    sessions: {
      transcript: async (id: string) => {
        reads.push(id);
        inFlight++;
        max = Math.max(max, inFlight);
        // Reads overlap only if the caller starts them together.
        await new Promise((r) => setTimeout(r, 2));
        inFlight--;
        const weight = weights[id];
        const s = sessions.find((x) => x.id === id)!;
        return weight === undefined ? undefined : { session: s, messages: messagesOf(id, weight) };
      },
      // A ZDR app's session is only looked up: whether it is still there.
      get: async (id: string) => (weights[id] === undefined ? undefined : sessions.find((x) => x.id === id)),
    },
  } as unknown as Deps;
  return { deps, maxInFlight: () => max, reads };
}

/** Sessions s01…sNN, s01 the newest, one microsecond apart. */
const numbered = (n: number, appOf: (i: number) => string = () => APP) =>
  Array.from({ length: n }, (_, i) => session(`s${String(i + 1).padStart(2, '0')}`, NOW_US - 1_000_000 - i, appOf(i + 1)));

const ids = (rows: readonly SessionWithMessages[]) => rows.map((r) => r.session.id);
const positionOf = (s: Session): KeysetPosition => ({ sortUs: lastActivityOf(s), id: s.id });

/** Every page from the top, following the cursors until has_more is false. */
async function pass(w: World, limit: number, budget: PageBudget) {
  const pages: { rows: SessionWithMessages[]; hasMore: boolean; nextCursor: string }[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await exportSessionsWithMessages(w.deps, { orgId: ORG, limit, budget, ...(cursor !== undefined ? { cursor } : {}) });
    pages.push(page);
    if (!page.hasMore) break;
    cursor = page.nextCursor;
    if (pages.length > 100) throw new Error('no end');
  }
  return pages;
}

describe('exportSessionsWithMessages', () => {
  it('drops a session whose transcript is gone; the cursor still continues after the index position', async () => {
    const all = numbered(5);
    const w = world(all, { s01: 1, s02: 1, s04: 1, s05: 1 });
    const page = await exportSessionsWithMessages(w.deps, { orgId: ORG, limit: 3, budget: BUDGET(1_000) });
    expect(ids(page.rows)).toEqual(['s01', 's02']);
    expect(page.hasMore).toBe(true);
    // The page read three rows of the index: it continues below the third, the gone one.
    expect(decodeCursor(KEY, page.nextCursor, BINDING)).toEqual(positionOf(all[2]!));
    const next = await exportSessionsWithMessages(w.deps, { orgId: ORG, limit: 3, cursor: page.nextCursor, budget: BUDGET(1_000) });
    expect(ids(next.rows)).toEqual(['s04', 's05']);
    expect(next.hasMore).toBe(false);

    // A page whose every row is gone is empty, and still moves on.
    const gone = world(all, { s04: 1, s05: 1 });
    const first = await exportSessionsWithMessages(gone.deps, { orgId: ORG, limit: 3, budget: BUDGET(1_000) });
    expect(first.rows).toEqual([]);
    expect(first.hasMore).toBe(true);
    expect(decodeCursor(KEY, first.nextCursor, BINDING)).toEqual(positionOf(all[2]!));
    for (const limit of [1, 2, 3, 4, 7]) {
      expect(
        (await pass(gone, limit, BUDGET(1_000))).flatMap((pg) => ids(pg.rows)),
        `limit ${limit}`,
      ).toEqual(['s04', 's05']);
    }
  });

  it('cuts a page where the next row would break the budget; the cursor decodes to the previous row’s (lastActivityOf, id)', async () => {
    const all = numbered(6);
    // Sizes 40, 40, 30, 10, 61, 5 under a budget of 100.
    const w = world(all, { s01: 39, s02: 39, s03: 29, s04: 9, s05: 60, s06: 4 });
    const page = await exportSessionsWithMessages(w.deps, { orgId: ORG, limit: 6, budget: BUDGET(100) });
    expect(ids(page.rows)).toEqual(['s01', 's02']);
    expect(page.hasMore).toBe(true);
    expect(page.limit).toBe(6);
    const at = decodeCursor(KEY, page.nextCursor, BINDING);
    expect(at).toEqual(positionOf(all[1]!));
    // lastActivityOf, whichever side of GREATEST wins (the last message for s01, the touch for s02).
    expect(at.sortUs).toBe(all[1]!.touchedAtUs);
    expect(decodeCursor(KEY, (await exportSessionsWithMessages(w.deps, { orgId: ORG, limit: 1, budget: BUDGET(100) })).nextCursor, BINDING).sortUs).toBe(
      all[0]!.lastMessageAtUs,
    );

    const pages = await pass(w, 6, BUDGET(100));
    expect(pages.map((pg) => ids(pg.rows))).toEqual([
      ['s01', 's02'],
      ['s03', 's04'],
      ['s05', 's06'],
    ]);
    for (const pg of pages) expect(pg.rows.reduce((sum, r) => sum + BUDGET(100).sizeOf(r), 0)).toBeLessThanOrEqual(100);
    // A page exactly at the budget is not cut.
    const exact = world(numbered(2), { s01: 49, s02: 49 });
    const full = await exportSessionsWithMessages(exact.deps, { orgId: ORG, limit: 2, budget: BUDGET(100) });
    expect(ids(full.rows)).toEqual(['s01', 's02']);
    expect(full.hasMore).toBe(false);
  });

  it('a cut right after a gone row continues at the row that did not fit', async () => {
    const all = numbered(4);
    // s02 is gone; s03 does not fit beside s01.
    const w = world(all, { s01: 59, s03: 59, s04: 1 });
    const page = await exportSessionsWithMessages(w.deps, { orgId: ORG, limit: 4, budget: BUDGET(100) });
    expect(ids(page.rows)).toEqual(['s01']);
    expect(page.hasMore).toBe(true);
    const at = decodeCursor(KEY, page.nextCursor, BINDING);
    // Below s01 and at or above s03: s03 is not skipped.
    expect([positionOf(all[0]!), positionOf(all[1]!)]).toContainEqual(at);
    expect((await pass(w, 4, BUDGET(100))).flatMap((pg) => ids(pg.rows))).toEqual(['s01', 's03', 's04']);
  });

  it('gives a row that alone breaks the budget with messages null, first on its page or after others', async () => {
    const all = numbered(4);
    const w = world(all, { s01: 500, s02: 10, s03: 500, s04: 10 });
    const page = await exportSessionsWithMessages(w.deps, { orgId: ORG, limit: 4, budget: BUDGET(100) });
    expect(page.rows.map((r) => [r.session.id, r.messages === null ? null : r.messages.length, r.zdr])).toEqual([
      ['s01', null, false],
      ['s02', 1, false],
      ['s03', null, false],
      ['s04', 1, false],
    ]);
    expect(page.hasMore).toBe(false);
    expect(page.rows[1]!.session).toEqual(all[1]);
    // A row just at the budget keeps its messages.
    const edge = world(numbered(1), { s01: 99 });
    expect((await exportSessionsWithMessages(edge.deps, { orgId: ORG, limit: 1, budget: BUDGET(100) })).rows[0]!.messages).toHaveLength(1);
  });

  it('Zero Data Retention apps: messages [] and zdr true; a gone ZDR session still leaves the page', async () => {
    const all = numbered(5, (i) => (i % 2 === 0 ? ZDR_APP : APP));
    const w = world(all, { s01: 5, s02: 5, s03: 5, s05: 0 }, [ZDR_APP]);
    const page = await exportSessionsWithMessages(w.deps, { orgId: ORG, limit: 5, budget: BUDGET(100) });
    expect(page.rows.map((r) => [r.session.id, r.messages, r.zdr])).toEqual([
      ['s01', messagesOf('s01', 5), false],
      ['s02', [], true],
      ['s03', messagesOf('s03', 5), false],
      ['s05', [], false],
    ]);
    // A ZDR app's rows weigh no content: a heavy transcript never cuts the page.
    const heavy = world(
      numbered(3, () => ZDR_APP),
      { s01: 500, s02: 500, s03: 500 },
      [ZDR_APP],
    );
    const zdrPage = await exportSessionsWithMessages(heavy.deps, { orgId: ORG, limit: 3, budget: BUDGET(10) });
    expect(zdrPage.rows.map((r) => [r.messages, r.zdr])).toEqual([
      [[], true],
      [[], true],
      [[], true],
    ]);
    expect(zdrPage.hasMore).toBe(false);
  });

  it('reads transcripts in batches of at most 16 at once, and no batch past a cut', async () => {
    const all = numbered(40);
    const weights = Object.fromEntries(all.map((s) => [s.id, 1]));
    const w = world(all, weights);
    const page = await exportSessionsWithMessages(w.deps, { orgId: ORG, limit: 40, budget: BUDGET(1_000) });
    expect(page.rows).toHaveLength(40);
    expect(w.reads).toHaveLength(40);
    expect(new Set(w.reads).size).toBe(40);
    expect(w.maxInFlight()).toBeLessThanOrEqual(16);
    expect(w.maxInFlight()).toBeGreaterThan(1);

    // Cut at the 20th row: the third batch (rows 33 to 40) is never read.
    const cut = world(all, weights);
    const short = await exportSessionsWithMessages(cut.deps, { orgId: ORG, limit: 40, budget: BUDGET(19 * 2) });
    expect(short.rows).toHaveLength(19);
    expect(decodeCursor(KEY, short.nextCursor, BINDING)).toEqual(positionOf(all[18]!));
    expect(cut.maxInFlight()).toBeLessThanOrEqual(16);
    expect(cut.reads.length).toBeLessThanOrEqual(32);
  });
});
