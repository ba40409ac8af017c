/**
 * The reference sync client (functions/cli/export-sync) against a scripted export API: the retry
 * rules, the tombstone rules (causes, resource types, where the feed walk stops), and what a run
 * persists, each against both stores (the JSON directory and DuckDB). Its convergence against the real
 * server is test/integration/export-convergence.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DuckDbStore, type DuckDbStoreOptions } from '../../functions/cli/export-sync/duckdb-store';
import { APPS, MESSAGES, SCHEMA, SESSIONS, TOMBSTONES, USAGE } from '../../functions/cli/export-sync/duckdb-tables';
import { ExportApiError, type HttpResponse, type HttpTransport } from '../../functions/cli/export-sync/export-api';
import { emptyCopy, JsonDirStore, type LocalCopy, type LocalStore, writeCopy } from '../../functions/cli/export-sync/local-store';
import { syncOnce, type SyncDeps } from '../../functions/cli/export-sync/sync-client';

type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | 'network';

/**
 * A scripted API: each path (without query) answers from its queue, then repeats its last reply.
 * `/apps` answers an empty list unless scripted.
 */
function scripted(scriptedRoutes: Record<string, Reply[]>): HttpTransport & { calls: string[] } {
  const calls: string[] = [];
  const routes: Record<string, Reply[]> = { [A]: [{ status: 200, body: { data: [] } }], ...scriptedRoutes };
  return {
    calls,
    async get(pathAndQuery): Promise<HttpResponse> {
      calls.push(pathAndQuery);
      const path = pathAndQuery.split('?')[0]!;
      const queue = routes[path];
      if (!queue?.length) return { status: 404, header: () => null, text: JSON.stringify({ error: { code: 'not_found', message: 'no route' } }) };
      const reply = queue.length > 1 ? queue.shift()! : queue[0]!;
      if (reply === 'network') throw new TypeError('fetch failed');
      return {
        status: reply.status,
        header: (n) => reply.headers?.[n.toLowerCase()] ?? null,
        text: reply.body === undefined ? '' : JSON.stringify(reply.body),
      };
    },
  };
}

const page = (data: unknown[], hasMore = false, next = 'c1') => ({
  status: 200,
  body: { data, pagination: { next_cursor: next, has_more: hasMore, limit: 100 } },
});
const empty = () => page([]);
const session = (id: string, lastActivityAt: string, consumerId: string | null = null) => ({
  id,
  app_id: 'app',
  consumer_id: consumerId,
  consumer_email: consumerId ? `${consumerId}@example.com` : null,
  title: 't',
  source: 'APP',
  external_id: null,
  query_params: [],
  started_at: '2026-01-01T00:00:00.000Z',
  ended_at: lastActivityAt,
  last_activity_at: lastActivityAt,
  last_message_at: lastActivityAt,
});
const transcript = (text: string) => ({
  status: 200,
  body: { data: { session: {}, messages: [{ id: 'm', role: 'user', content: text, created_at: '2026-01-01T00:00:00.000Z' }], zdr: false } },
});
const tombstone = (id: string, type: string, resourceId: string, cause: string) => ({
  id,
  resource_type: type,
  resource_id: resourceId,
  cause,
  deleted_at: '2026-01-02T00:00:00.000Z',
});

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'export-sync-unit-'));
  dirs.push(d);
  return d;
};

/** A store under test: counts the passes that committed, and reads back what was persisted with a store of its own. */
type TestStore = LocalStore & { saves: number; saved: () => Promise<LocalCopy> };
type StoreKind = 'json' | 'duckdb';
const STORES: StoreKind[] = ['json', 'duckdb'];
const opened: LocalStore[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close?.();
});

async function openStore(kind: StoreKind, at = join(tempDir(), kind === 'json' ? 'copy' : 'copy.duckdb'), opts: DuckDbStoreOptions = {}): Promise<LocalStore> {
  const store = kind === 'json' ? new JsonDirStore(at) : await DuckDbStore.open(at, opts);
  opened.push(store);
  return store;
}

/** A fresh store of `kind`, holding `initial` when given. */
async function storeOf(kind: StoreKind, initial?: LocalCopy): Promise<TestStore> {
  const inner = await openStore(kind);
  if (initial) await writeCopy(inner, initial);
  const store: TestStore = {
    saves: 0,
    load: () => inner.load(),
    async begin() {
      const pass = await inner.begin();
      const commit = pass.commit.bind(pass);
      pass.commit = async () => {
        store.saves++;
        await commit();
      };
      return pass;
    },
    // A JSON store reads its files again; the DuckDB store reads its tables (it holds the file's lock).
    saved: () => (inner instanceof JsonDirStore ? new JsonDirStore(inner.dir).load() : inner.load()),
  };
  return store;
}

const A = '/api/v1/org/apps';
const S = '/api/v1/org/sessions';
const T = '/api/v1/org/tombstones';
const U = '/api/v1/org/usage';
const noSleep = async () => undefined;

describe.each(STORES)('export sync client (%s store): retries', (kind) => {
  it('waits Retry-After on 429, backs off on 5xx and network failures, then succeeds', async () => {
    const waits: number[] = [];
    const api = scripted({ [S]: [{ status: 429, headers: { 'retry-after': '7' } }, { status: 503 }, 'network', empty()], [T]: [empty()], [U]: [empty()] });
    const summary = await syncOnce({ transport: api, store: await storeOf(kind), sleep: async (ms) => void waits.push(ms) });
    expect(waits[0]).toBe(7000);
    expect(waits).toHaveLength(3);
    expect(summary.requests).toEqual({ total: 7, retries: 2, rate_limited: 1, downloads: 0 });
  });

  it('gives up on 5xx after the bounded retries, and fails at once on another 4xx with the error body', async () => {
    const store = await storeOf(kind);
    const retry = { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1, maxRateLimitWaits: 1 };
    await expect(
      syncOnce({ transport: scripted({ [S]: [{ status: 500, body: { error: { code: 'unavailable', message: 'x' } } }] }), store, sleep: noSleep, retry }),
    ).rejects.toMatchObject({
      status: 500,
      body: { error: { code: 'unavailable' } },
    });
    const bad = scripted({ [S]: [{ status: 400, body: { error: { code: 'bad_request', message: 'Invalid updated_after' } } }] });
    const err = await syncOnce({ transport: bad, store, sleep: noSleep, retry }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExportApiError);
    expect(err).toMatchObject({ status: 400, body: { error: { message: 'Invalid updated_after' } } });
    expect(bad.calls.filter((c) => c.startsWith(S))).toHaveLength(1);
    expect(store.saves).toBe(0);
  });
});

describe.each(STORES)('export sync client (%s store): sessions pass', (kind) => {
  it('per-session: starts each run without a cursor from the checkpoint, fetches changed transcripts only, and drops a 404', async () => {
    const store = await storeOf(kind);
    const first = scripted({
      [S]: [
        page([session('b', '2026-01-01T00:00:02.000Z'), session('a', '2026-01-01T00:00:01.000Z')], true, 'p2'),
        page([session('gone', '2026-01-01T00:00:00.500Z')]),
      ],
      [`${S}/a/messages`]: [transcript('a1')],
      [`${S}/b/messages`]: [transcript('b1')],
      [T]: [empty()],
      [U]: [empty()],
    });
    await syncOnce({ transport: first, store, sleep: noSleep, transcripts: 'per-session' });
    expect(first.calls[0]).toBe(A);
    expect(first.calls[1]).toBe(`${S}?limit=100`);
    expect(first.calls).toContain(`${S}?limit=100&cursor=p2`);
    expect(first.calls).toContain(`${S}/a/messages?include=tool_details`);
    expect([...(await store.saved()).sessions.keys()].sort()).toEqual(['a', 'b']);
    expect((await store.saved()).state.sessionsCheckpoint).toBe('2026-01-01T00:00:02.000Z');

    // The inclusive filter lists b again unchanged (no transcript fetch); a changed.
    const second = scripted({
      [S]: [page([session('a', '2026-01-01T00:00:03.000Z'), session('b', '2026-01-01T00:00:02.000Z')])],
      [`${S}/a/messages`]: [transcript('a2')],
      [T]: [empty()],
      [U]: [empty()],
    });
    await syncOnce({ transport: second, store, sleep: noSleep, transcripts: 'per-session' });
    expect(second.calls[1]).toBe(`${S}?limit=100&updated_after=2026-01-01T00%3A00%3A02.000Z`);
    expect(second.calls.filter((c) => c.includes('/messages'))).toEqual([`${S}/a/messages?include=tool_details`]);
    expect((await store.saved()).sessions.get('a')!.messages).toEqual([expect.objectContaining({ content: 'a2' })]);
    expect((await store.saved()).state.sessionsCheckpoint).toBe('2026-01-01T00:00:03.000Z');
  });
});

describe.each(STORES)('export sync client (%s store): sessions pass with transcripts in the rows', (kind) => {
  const withMessages = (id: string, at: string, messages: unknown[] | null, zdr = false) => ({ ...session(id, at), messages, zdr });
  const INLINE = `${S}?limit=100&include=messages%2Ctool_details`;
  const B1 = { id: 'b1', role: 'user', content: 'hi', created_at: '2026-01-01T00:00:00.000Z' };

  it('takes each transcript from its row, reads one too large for a page on its own, and drops a row whose read is a 404', async () => {
    const store = await storeOf(kind);
    const api = scripted({
      [S]: [
        page(
          [
            withMessages('b', '2026-01-01T00:00:02.000Z', [B1]),
            withMessages('big', '2026-01-01T00:00:01.500Z', null),
            withMessages('z', '2026-01-01T00:00:01.200Z', [], true),
          ],
          true,
          'p2',
        ),
        page([withMessages('a', '2026-01-01T00:00:01.000Z', []), withMessages('gone', '2026-01-01T00:00:00.500Z', null)]),
      ],
      [`${S}/big/messages`]: [transcript('big1')],
      [T]: [empty()],
      [U]: [empty()],
    });
    const summary = await syncOnce({ transport: api, store, sleep: noSleep });
    expect(api.calls[1]).toBe(INLINE);
    expect(api.calls).toContain(`${INLINE}&cursor=p2`);
    expect(api.calls.filter((c) => c.includes('/messages'))).toEqual([`${S}/big/messages?include=tool_details`, `${S}/gone/messages?include=tool_details`]);
    expect(summary.sessions).toMatchObject({ pages: 2, seen: 5, upserted: 4, transcripts: 2, gone: 1 });
    const saved = await store.saved();
    expect([...saved.sessions.keys()].sort()).toEqual(['a', 'b', 'big', 'z']);
    // The stored row is the list form: the transcript and zdr sit beside it, not in it.
    expect(saved.sessions.get('b')).toEqual({ session: session('b', '2026-01-01T00:00:02.000Z'), messages: [B1], zdr: false });
    expect(saved.sessions.get('z')!.zdr).toBe(true);
    expect(saved.sessions.get('big')!.messages).toEqual([expect.objectContaining({ content: 'big1' })]);
  });
});

describe.each(STORES)('export sync client (%s store): apps pass', (kind) => {
  const app = (id: string, name: string) => ({ id, name, slug: id, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' });
  const run = (apps: Reply) => scripted({ [A]: [apps], [S]: [empty()], [T]: [empty()], [U]: [empty()] });

  it("replaces the copy's apps with the list, and a key without apps:read skips the pass and says so", async () => {
    const store = await storeOf(kind);
    const first = await syncOnce({ transport: run({ status: 200, body: { data: [app('x', 'X'), app('y', 'Y')] } }), store, sleep: noSleep });
    expect(first.apps).toEqual({ seen: 2, upserted: 2, removed: 0, skipped: null });
    const second = await syncOnce({ transport: run({ status: 200, body: { data: [app('y', 'Y renamed')] } }), store, sleep: noSleep });
    expect(second.apps).toEqual({ seen: 1, upserted: 1, removed: 1, skipped: null });
    expect([...(await store.saved()).apps.values()]).toEqual([app('y', 'Y renamed')]);
    const forbidden = await syncOnce({
      transport: run({ status: 403, body: { error: { code: 'forbidden', message: 'missing scope' } } }),
      store,
      sleep: noSleep,
    });
    expect(forbidden.apps.skipped).toMatch(/apps:read/);
    expect([...(await store.saved()).apps.keys()]).toEqual(['y']);
  });
});

describe.each(STORES)('export sync client (%s store): tombstones', (kind) => {
  const seeded = () => {
    const copy = emptyCopy();
    for (const [id, consumer] of [
      ['s1', 'c1'],
      ['s2', 'c1'],
      ['s3', 'c2'],
      ['s4', null],
    ] as const) {
      copy.sessions.set(id, { session: session(id, '2026-01-01T00:00:01.000Z', consumer), messages: [{ id: 'm' }], zdr: false });
    }
    copy.state.sessionsCheckpoint = '2026-01-01T00:00:01.000Z';
    return copy;
  };

  it('deletes a tombstoned session with its messages and never upserts it again', async () => {
    const store = await storeOf(kind, seeded());
    await syncOnce({
      transport: scripted({ [S]: [empty()], [T]: [page([tombstone('t1', 'session', 's1', 'consumer_deleted')])], [U]: [empty()] }),
      store,
      sleep: noSleep,
    });
    expect((await store.saved()).sessions.has('s1')).toBe(false);
    // Listed again before its removal committed: skipped.
    const late = await syncOnce({
      transport: scripted({
        [S]: [page([session('s1', '2026-01-01T00:00:05.000Z')])],
        [`${S}/s1/messages`]: [transcript('x')],
        [T]: [page([tombstone('t1', 'session', 's1', 'consumer_deleted')])],
        [U]: [empty()],
      }),
      store,
      sleep: noSleep,
    });
    expect(late.sessions.skipped_tombstoned).toBe(1);
    expect((await store.saved()).sessions.has('s1')).toBe(false);
  });

  it('a consumer tombstone with a known cause keeps the sessions as the export shows them', async () => {
    const store = await storeOf(kind, seeded());
    const s = await syncOnce({
      transport: scripted({ [S]: [empty()], [T]: [page([tombstone('t1', 'consumer', 'c1', 'retention_expiry')])], [U]: [empty()] }),
      store,
      sleep: noSleep,
    });
    expect(s.tombstones).toMatchObject({ new: 1, consumers_erased: 1, sessions_deleted: 0, conservative: 0 });
    expect([...(await store.saved()).sessions.keys()].sort()).toEqual(['s1', 's2', 's3', 's4']);
    expect((await store.saved()).sessions.get('s1')!.session.consumer_email).toBe('c1@example.com');
    expect((await store.saved()).state.erasedConsumerIds).toEqual(['c1']);
  });

  it.each(['unknown', 'legal_hold_purge'])('a consumer tombstone with cause %s is a conservative erasure of its sessions', async (cause) => {
    const store = await storeOf(kind, seeded());
    const s = await syncOnce({
      transport: scripted({ [S]: [empty()], [T]: [page([tombstone('t1', 'consumer', 'c1', cause)])], [U]: [empty()] }),
      store,
      sleep: noSleep,
    });
    expect(s.tombstones).toMatchObject({ sessions_deleted: 2, conservative: 1 });
    expect([...(await store.saved()).sessions.keys()].sort()).toEqual(['s3', 's4']);
  });

  it('an unknown resource type erases whatever its id names', async () => {
    const store = await storeOf(kind, seeded());
    await syncOnce({
      transport: scripted({ [S]: [empty()], [T]: [page([tombstone('t1', 'workspace', 's4', 'app_deleted')])], [U]: [empty()] }),
      store,
      sleep: noSleep,
    });
    expect((await store.saved()).sessions.has('s4')).toBe(false);
    expect((await store.saved()).state.tombstonedSessionIds).toEqual(['s4']);
  });

  it('reads the feed from the newest page down to the first page holding an ingested id', async () => {
    const copy = seeded();
    copy.state.ingestedTombstoneIds = ['t2'];
    const store = await storeOf(kind, copy);
    const api = scripted({
      [S]: [empty()],
      [T]: [
        page([tombstone('t5', 'session', 's1', 'app_deleted'), tombstone('t4', 'session', 's2', 'app_deleted')], true, 'x'),
        page([tombstone('t3', 'session', 's3', 'app_deleted'), tombstone('t2', 'session', 'sX', 'app_deleted')], true, 'y'),
        page([tombstone('t1', 'session', 's4', 'app_deleted')]),
      ],
      [U]: [empty()],
    });
    const s = await syncOnce({ transport: api, store, sleep: noSleep });
    expect(api.calls.filter((c) => c.startsWith(T))).toEqual([`${T}?limit=100`, `${T}?limit=100&cursor=x`]);
    expect(s.tombstones.new).toBe(3);
    expect([...(await store.saved()).sessions.keys()]).toEqual(['s4']);
    expect((await store.saved()).state.ingestedTombstoneIds).toEqual(['t2', 't5', 't4', 't3']);
  });
});

/** One run over every list: an app, a session whose transcript has tool markers, a usage row, a tombstone. */
const fullRun = (): SyncDeps['transport'] =>
  scripted({
    [A]: [
      {
        status: 200,
        body: { data: [{ id: 'app1', name: 'Shop', slug: 'shop', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.500Z' }] },
      },
    ],
    [S]: [page([session('a', '2026-01-01T00:00:01.000Z', 'c1'), session('doomed', '2026-01-01T00:00:00.700Z')])],
    [`${S}/a/messages`]: [
      {
        status: 200,
        body: {
          data: {
            session: {},
            messages: [
              { id: 'm1', role: 'user', content: 'hello', created_at: '2026-01-01T00:00:00.100Z' },
              {
                id: 'm2',
                role: 'assistant',
                content: 'hi',
                created_at: '2026-01-01T00:00:00.200Z',
                tools: [{ type: 'custom_component', component: 'Card' }],
                rating: 5,
              },
            ],
            zdr: false,
          },
        },
      },
    ],
    [`${S}/doomed/messages`]: [transcript('bye')],
    [T]: [page([tombstone('t1', 'session', 'doomed', 'consumer_deleted')])],
    [U]: [page([{ ...usageRow(7), created_at: '2026-01-01T00:00:00.300Z' }])],
  });
const usageRow = (id: number) => ({
  id,
  app_id: 'app1',
  session_id: 'a',
  consumer_id: 'c1',
  model: 'offline',
  source: 'consumer',
  input_tokens: 10,
  output_tokens: 20,
  cache_read_input_tokens: 1,
  cache_creation_input_tokens: 0,
  cost_usd: '0.001000',
  created_at: '2026-01-01T00:00:00.000Z',
});

describe('export sync client: JSON directory store', () => {
  it('round-trips the copy and leaves no temporary files', async () => {
    const dir = tempDir();
    const store = new JsonDirStore(join(dir, 'copy'));
    await syncOnce({ transport: fullRun(), store, sleep: noSleep });
    expect(readdirSync(join(dir, 'copy')).sort()).toEqual(['apps.json', 'sessions.json', 'state.json', 'tombstones.json', 'usage.json']);
    const state = JSON.parse(readFileSync(join(dir, 'copy', 'state.json'), 'utf8'));
    expect(state).toMatchObject({
      version: 1,
      sessions_checkpoint: '2026-01-01T00:00:01.000Z',
      usage_checkpoint: '2026-01-01T00:00:00.300Z',
      tombstones: { ingested_ids: ['t1'] },
    });
    const loaded = await store.load();
    expect(loaded.sessions.get('a')!.messages).toEqual([expect.objectContaining({ content: 'hello' }), expect.objectContaining({ content: 'hi' })]);
    expect(loaded.usage.get('7')).toEqual({ ...usageRow(7), created_at: '2026-01-01T00:00:00.300Z' });
    expect([...loaded.apps.keys()]).toEqual(['app1']);
    expect([...loaded.tombstones.keys()]).toEqual(['t1']);
  });
});

describe('export sync client: DuckDB store', () => {
  it('keeps the same copy as the JSON store, field for field, in typed tables', async () => {
    const json = new JsonDirStore(join(tempDir(), 'copy'));
    const path = join(tempDir(), 'copy.duckdb');
    const duck = await DuckDbStore.open(path);
    const a = await syncOnce({ transport: fullRun(), store: json, sleep: noSleep });
    const b = await syncOnce({ transport: fullRun(), store: duck, sleep: noSleep });
    expect({ ...b, started_at: 0, duration_ms: 0 }).toEqual({ ...a, started_at: 0, duration_ms: 0 });
    const fromDuck = await duck.load();
    expect(fromDuck).toEqual(await json.load());
    expect(JSON.stringify([...fromDuck.sessions])).toBe(JSON.stringify([...(await json.load()).sessions]));
    await duck.close();

    const db = await (await DuckDBInstance.create(path)).connect();
    const rows = async (sql: string) => (await db.runAndReadAll(sql)).getRowObjectsJson();
    expect(await rows("SELECT id, content, tools->>'$[0].component' AS component, extra->>'rating' AS rating FROM messages ORDER BY seq")).toEqual([
      { id: 'm1', content: 'hello', component: null, rating: null },
      { id: 'm2', content: 'hi', component: 'Card', rating: '5' },
    ]);
    expect(await rows('SELECT id, zdr, epoch_ms(last_activity_at) AS ms, typeof(last_activity_at) AS type FROM sessions')).toEqual([
      { id: 'a', zdr: false, ms: String(Date.parse('2026-01-01T00:00:01.000Z')), type: 'TIMESTAMP WITH TIME ZONE' },
    ]);
    expect(await rows('SELECT id, input_tokens, CAST(cost_usd AS DECIMAL(18, 6)) AS cost FROM usage')).toEqual([
      { id: '7', input_tokens: '10', cost: '0.001000' },
    ]);
    expect(await rows('SELECT id, resource_id FROM tombstones')).toEqual([{ id: 't1', resource_id: 'doomed' }]);
    expect(await rows('SELECT name, value FROM sync_checkpoint ORDER BY name')).toEqual([
      { name: 'sessions', value: '2026-01-01T00:00:01.000Z' },
      { name: 'usage', value: '2026-01-01T00:00:00.300Z' },
    ]);
    expect(await rows('SELECT id FROM sync_tombstoned_sessions')).toEqual([{ id: 'doomed' }]);
    db.closeSync();
  });

  it('keeps syncing a copy whose tables were created with primary keys (an earlier version of the client)', async () => {
    const path = join(tempDir(), 'copy.duckdb');
    const db = await (await DuckDBInstance.create(path)).connect();
    // The schema as it was: a primary key on every data table and id set.
    for (const sql of SCHEMA) {
      const t = [APPS, SESSIONS, MESSAGES, USAGE, TOMBSTONES].find((table) => sql.includes(`EXISTS ${table.name} (`));
      await db.run(t ? sql.replace(/\)$/, `, PRIMARY KEY (${t.key.join(', ')}))`) : sql.replace('(id VARCHAR NOT NULL', '(id VARCHAR PRIMARY KEY'));
    }
    db.closeSync();
    const store = await openStore('duckdb', path);
    await syncOnce({ transport: fullRun(), store, sleep: noSleep });
    const again = scripted({
      [A]: [
        {
          status: 200,
          body: { data: [{ id: 'app1', name: 'renamed', slug: 'app1', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' }] },
        },
      ],
      [S]: [page([session('a', '2026-01-01T00:00:05.000Z', 'c1')])],
      [`${S}/a/messages`]: [transcript('a2')],
      [T]: [page([tombstone('t1', 'session', 'doomed', 'consumer_deleted')])],
      [U]: [page([{ ...usageRow(7), input_tokens: 99 }])],
    });
    await syncOnce({ transport: again, store, sleep: noSleep, transcripts: 'per-session' });
    const copy = await store.load();
    expect(copy.apps.get('app1')).toMatchObject({ name: 'renamed' });
    expect(copy.sessions.get('a')!.messages).toEqual([expect.objectContaining({ content: 'a2' })]);
    expect(copy.usage.get('7')).toMatchObject({ input_tokens: 99 });
  });

  it('writes a pass and its checkpoint in one transaction: a failure before COMMIT leaves both as they were', async () => {
    const path = join(tempDir(), 'copy.duckdb');
    const first = await openStore('duckdb', path);
    await syncOnce({ transport: fullRun(), store: first, sleep: noSleep });
    const before = await first.load();
    await first.close!();
    opened.splice(opened.indexOf(first), 1);

    // The second run's sessions commit fails after writing its rows: a new session, a changed one.
    let saves = 0;
    const crashing = await openStore('duckdb', path, {
      beforeCommit: () => {
        if (++saves === 1) throw new Error('crash before COMMIT');
      },
    });
    const changed = () =>
      scripted({
        [S]: [page([session('b', '2026-01-01T00:00:09.000Z'), session('a', '2026-01-01T00:00:08.000Z', 'c1')])],
        [`${S}/a/messages`]: [transcript('a2')],
        [`${S}/b/messages`]: [transcript('b1')],
        [T]: [page([tombstone('t1', 'session', 'doomed', 'consumer_deleted')])],
        [U]: [empty()],
      });
    await expect(syncOnce({ transport: changed(), store: crashing, sleep: noSleep })).rejects.toThrow('crash before COMMIT');
    expect(await crashing.load()).toEqual(before);

    // The next run starts from the old checkpoint and lands everything.
    const next = await syncOnce({ transport: changed(), store: crashing, sleep: noSleep });
    expect(next.sessions).toMatchObject({ seen: 2, transcripts: 2, checkpoint: '2026-01-01T00:00:09.000Z' });
    const after = await crashing.load();
    expect([...after.sessions.keys()].sort()).toEqual(['a', 'b']);
    expect(after.sessions.get('a')!.messages).toEqual([expect.objectContaining({ content: 'a2' })]);
    expect(after.state.sessionsCheckpoint).toBe('2026-01-01T00:00:09.000Z');
  });
});
