/**
 * The reference sync client (functions/cli/export-sync) against a scripted export API: the retry
 * rules, the tombstone rules (causes, resource types, where the feed walk stops), and what a run
 * persists. Its convergence against the real server is test/integration/export-convergence.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ExportApiError, type HttpResponse, type HttpTransport } from '../../functions/cli/export-sync/export-api';
import { emptyCopy, JsonDirStore, type LocalCopy, type LocalStore } from '../../functions/cli/export-sync/local-store';
import { syncOnce, type SyncDeps } from '../../functions/cli/export-sync/sync-client';

type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | 'network';

/** A scripted API: each path (without query) answers from its queue, then repeats its last reply. */
function scripted(routes: Record<string, Reply[]>): HttpTransport & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async get(pathAndQuery): Promise<HttpResponse> {
      calls.push(pathAndQuery);
      const path = pathAndQuery.split('?')[0]!;
      const queue = routes[path];
      if (!queue?.length) return { status: 404, header: () => null, text: JSON.stringify({ error: { code: 'not_found', message: 'no route' } }) };
      const reply = queue.length > 1 ? queue.shift()! : queue[0]!;
      if (reply === 'network') throw new TypeError('fetch failed');
      return { status: reply.status, header: (n) => reply.headers?.[n.toLowerCase()] ?? null, text: reply.body === undefined ? '' : JSON.stringify(reply.body) };
    },
  };
}

const page = (data: unknown[], hasMore = false, next = 'c1') => ({ status: 200, body: { data, pagination: { next_cursor: next, has_more: hasMore, limit: 100 } } });
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
const transcript = (text: string) => ({ status: 200, body: { data: { session: {}, messages: [{ id: 'm', role: 'user', content: text, created_at: '2026-01-01T00:00:00.000Z' }], zdr: false } } });
const tombstone = (id: string, type: string, resourceId: string, cause: string) => ({ id, resource_type: type, resource_id: resourceId, cause, deleted_at: '2026-01-02T00:00:00.000Z' });

/** A store in memory that keeps what was saved, and counts saves. */
function memoryStore(initial: LocalCopy = emptyCopy()): LocalStore & { saves: number; saved: () => LocalCopy } {
  let json = JSON.stringify(serialize(initial));
  const store = {
    saves: 0,
    async load() {
      return deserialize(JSON.parse(json));
    },
    async save(copy: LocalCopy) {
      store.saves++;
      json = JSON.stringify(serialize(copy));
    },
    saved: () => deserialize(JSON.parse(json)),
  };
  return store;
}
function serialize(c: LocalCopy) {
  return { sessions: [...c.sessions], usage: [...c.usage], state: c.state };
}
function deserialize(o: ReturnType<typeof serialize>): LocalCopy {
  return { sessions: new Map(o.sessions), usage: new Map(o.usage), state: o.state };
}

const S = '/api/v1/org/sessions';
const T = '/api/v1/org/tombstones';
const U = '/api/v1/org/usage';
const noSleep = async () => undefined;

describe('export sync client: retries', () => {
  it('waits Retry-After on 429, backs off on 5xx and network failures, then succeeds', async () => {
    const waits: number[] = [];
    const api = scripted({ [S]: [{ status: 429, headers: { 'retry-after': '7' } }, { status: 503 }, 'network', empty()], [T]: [empty()], [U]: [empty()] });
    const summary = await syncOnce({ transport: api, store: memoryStore(), sleep: async (ms) => void waits.push(ms) });
    expect(waits[0]).toBe(7000);
    expect(waits).toHaveLength(3);
    expect(summary.requests).toEqual({ total: 6, retries: 2, rate_limited: 1 });
  });

  it('gives up on 5xx after the bounded retries, and fails at once on another 4xx with the error body', async () => {
    const store = memoryStore();
    const retry = { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1, maxRateLimitWaits: 1 };
    await expect(syncOnce({ transport: scripted({ [S]: [{ status: 500, body: { error: { code: 'unavailable', message: 'x' } } }] }), store, sleep: noSleep, retry })).rejects.toMatchObject({
      status: 500,
      body: { error: { code: 'unavailable' } },
    });
    const bad = scripted({ [S]: [{ status: 400, body: { error: { code: 'bad_request', message: 'Invalid updated_after' } } }] });
    const err = await syncOnce({ transport: bad, store, sleep: noSleep, retry }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExportApiError);
    expect(err).toMatchObject({ status: 400, body: { error: { message: 'Invalid updated_after' } } });
    expect(bad.calls).toHaveLength(1);
    expect(store.saves).toBe(0);
  });
});

describe('export sync client: sessions pass', () => {
  it('starts each run without a cursor from the checkpoint, fetches changed transcripts only, and drops a 404', async () => {
    const store = memoryStore();
    const first = scripted({
      [S]: [page([session('b', '2026-01-01T00:00:02.000Z'), session('a', '2026-01-01T00:00:01.000Z')], true, 'p2'), page([session('gone', '2026-01-01T00:00:00.500Z')])],
      [`${S}/a/messages`]: [transcript('a1')],
      [`${S}/b/messages`]: [transcript('b1')],
      [T]: [empty()],
      [U]: [empty()],
    });
    await syncOnce({ transport: first, store, sleep: noSleep });
    expect(first.calls[0]).toBe(`${S}?limit=100`);
    expect(first.calls).toContain(`${S}?limit=100&cursor=p2`);
    expect(first.calls).toContain(`${S}/a/messages?include=tool_details`);
    expect([...store.saved().sessions.keys()].sort()).toEqual(['a', 'b']);
    expect(store.saved().state.sessionsCheckpoint).toBe('2026-01-01T00:00:02.000Z');

    // The inclusive filter lists b again unchanged (no transcript fetch); a changed.
    const second = scripted({
      [S]: [page([session('a', '2026-01-01T00:00:03.000Z'), session('b', '2026-01-01T00:00:02.000Z')])],
      [`${S}/a/messages`]: [transcript('a2')],
      [T]: [empty()],
      [U]: [empty()],
    });
    await syncOnce({ transport: second, store, sleep: noSleep });
    expect(second.calls[0]).toBe(`${S}?limit=100&updated_after=2026-01-01T00%3A00%3A02.000Z`);
    expect(second.calls.filter((c) => c.includes('/messages'))).toEqual([`${S}/a/messages?include=tool_details`]);
    expect(store.saved().sessions.get('a')!.messages).toEqual([expect.objectContaining({ content: 'a2' })]);
    expect(store.saved().state.sessionsCheckpoint).toBe('2026-01-01T00:00:03.000Z');
  });
});

describe('export sync client: tombstones', () => {
  const seeded = () => {
    const copy = emptyCopy();
    for (const [id, consumer] of [['s1', 'c1'], ['s2', 'c1'], ['s3', 'c2'], ['s4', null]] as const) {
      copy.sessions.set(id, { session: session(id, '2026-01-01T00:00:01.000Z', consumer), messages: [{ id: 'm' }], zdr: false });
    }
    copy.state.sessionsCheckpoint = '2026-01-01T00:00:01.000Z';
    return copy;
  };

  it('deletes a tombstoned session with its messages and never upserts it again', async () => {
    const store = memoryStore(seeded());
    await syncOnce({ transport: scripted({ [S]: [empty()], [T]: [page([tombstone('t1', 'session', 's1', 'consumer_deleted')])], [U]: [empty()] }), store, sleep: noSleep });
    expect(store.saved().sessions.has('s1')).toBe(false);
    // Listed again before its removal committed: skipped.
    const late = await syncOnce({
      transport: scripted({ [S]: [page([session('s1', '2026-01-01T00:00:05.000Z')])], [`${S}/s1/messages`]: [transcript('x')], [T]: [page([tombstone('t1', 'session', 's1', 'consumer_deleted')])], [U]: [empty()] }),
      store,
      sleep: noSleep,
    });
    expect(late.sessions.skipped_tombstoned).toBe(1);
    expect(store.saved().sessions.has('s1')).toBe(false);
  });

  it('a consumer tombstone with a known cause keeps the sessions as the export shows them', async () => {
    const store = memoryStore(seeded());
    const s = await syncOnce({ transport: scripted({ [S]: [empty()], [T]: [page([tombstone('t1', 'consumer', 'c1', 'retention_expiry')])], [U]: [empty()] }), store, sleep: noSleep });
    expect(s.tombstones).toMatchObject({ new: 1, consumers_erased: 1, sessions_deleted: 0, conservative: 0 });
    expect([...store.saved().sessions.keys()].sort()).toEqual(['s1', 's2', 's3', 's4']);
    expect(store.saved().sessions.get('s1')!.session.consumer_email).toBe('c1@example.com');
    expect(store.saved().state.erasedConsumerIds).toEqual(['c1']);
  });

  it.each(['unknown', 'legal_hold_purge'])('a consumer tombstone with cause %s is a conservative erasure of its sessions', async (cause) => {
    const store = memoryStore(seeded());
    const s = await syncOnce({ transport: scripted({ [S]: [empty()], [T]: [page([tombstone('t1', 'consumer', 'c1', cause)])], [U]: [empty()] }), store, sleep: noSleep });
    expect(s.tombstones).toMatchObject({ sessions_deleted: 2, conservative: 1 });
    expect([...store.saved().sessions.keys()].sort()).toEqual(['s3', 's4']);
  });

  it('an unknown resource type erases whatever its id names', async () => {
    const store = memoryStore(seeded());
    await syncOnce({ transport: scripted({ [S]: [empty()], [T]: [page([tombstone('t1', 'workspace', 's4', 'app_deleted')])], [U]: [empty()] }), store, sleep: noSleep });
    expect(store.saved().sessions.has('s4')).toBe(false);
    expect(store.saved().state.tombstonedSessionIds).toEqual(['s4']);
  });

  it('reads the feed from the newest page down to the first page holding an ingested id', async () => {
    const copy = seeded();
    copy.state.ingestedTombstoneIds = ['t2'];
    const store = memoryStore(copy);
    const api = scripted({
      [S]: [empty()],
      [T]: [page([tombstone('t5', 'session', 's1', 'app_deleted'), tombstone('t4', 'session', 's2', 'app_deleted')], true, 'x'), page([tombstone('t3', 'session', 's3', 'app_deleted'), tombstone('t2', 'session', 'sX', 'app_deleted')], true, 'y'), page([tombstone('t1', 'session', 's4', 'app_deleted')])],
      [U]: [empty()],
    });
    const s = await syncOnce({ transport: api, store, sleep: noSleep });
    expect(api.calls.filter((c) => c.startsWith(T))).toEqual([`${T}?limit=100`, `${T}?limit=100&cursor=x`]);
    expect(s.tombstones.new).toBe(3);
    expect([...store.saved().sessions.keys()]).toEqual(['s4']);
    expect(store.saved().state.ingestedTombstoneIds).toEqual(['t2', 't5', 't4', 't3']);
  });
});

describe('export sync client: JSON directory store', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('round-trips the copy and leaves no temporary files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'export-sync-unit-'));
    dirs.push(dir);
    const store = new JsonDirStore(join(dir, 'copy'));
    const deps: SyncDeps = {
      transport: scripted({
        [S]: [page([session('a', '2026-01-01T00:00:01.000Z')])],
        [`${S}/a/messages`]: [transcript('hello')],
        [T]: [empty()],
        [U]: [page([{ id: 7, created_at: '2026-01-01T00:00:00.000Z', cost_usd: '0.01' }])],
      }),
      store,
      sleep: noSleep,
    };
    await syncOnce(deps);
    expect(readdirSync(join(dir, 'copy')).sort()).toEqual(['sessions.json', 'state.json', 'usage.json']);
    const state = JSON.parse(readFileSync(join(dir, 'copy', 'state.json'), 'utf8'));
    expect(state).toMatchObject({ version: 1, sessions_checkpoint: '2026-01-01T00:00:01.000Z', usage_checkpoint: '2026-01-01T00:00:00.000Z' });
    const loaded = await store.load();
    expect(loaded.sessions.get('a')!.messages).toEqual([expect.objectContaining({ content: 'hello' })]);
    expect(loaded.usage.get('7')).toEqual({ id: 7, created_at: '2026-01-01T00:00:00.000Z', cost_usd: '0.01' });
  });
});
