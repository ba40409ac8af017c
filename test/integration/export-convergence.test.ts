/**
 * Export convergence: the reference sync client (functions/cli/export-sync) follows the spec's sync
 * rules against the local server while concurrent writers create, change and delete, some of them
 * committing late; afterwards its copy equals the truth field for field, and no deleted session came
 * back. Plus: a pass that fails midway persists nothing, a process killed inside the commit
 * transaction of the DuckDB store leaves neither rows nor checkpoint behind, and the next run
 * converges. Every case runs against both stores: the JSON directory and DuckDB.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendToSession,
  deleteMessage,
  editMessage,
  renameSession,
  startSession,
  type TurnMessage,
  type TurnUsage,
} from '../../functions/chat/app/record-session-activity';
import { DuckDbStore } from '../../functions/cli/export-sync/duckdb-store';
import { fetchTransport, type ExportApiError } from '../../functions/cli/export-sync/export-api';
import { JsonDirStore, type LocalStore } from '../../functions/cli/export-sync/local-store';
import { syncOnce, type SyncDeps, type SyncSummary } from '../../functions/cli/export-sync/sync-client';
import { DomainError } from '../../functions/kernel/domain/errors';
import { TestClock } from '../support/clock';
import { delayWrites, differences, failCommands, imageOf, itemType, readTruth, rotatingTransport } from '../support/export-truth';
import { seedSessions } from '../support/imports';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { itemsUnder, tableOf, tombstonesOf, type PlatformTable } from '../support/store';

const VISIBILITY_DELAY_MS = 1500;
const DOOMED_SESSIONS = 100;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** mulberry32: the writers' choices are reproducible (their interleaving with the sync is not). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const isNotFound = (err: unknown) => err instanceof DomainError && err.code === 'not_found';

function turn(n: number): TurnMessage[] {
  const tools =
    n % 3 === 0
      ? [
          { id: `call_${n}`, name: 'search', type: 'function', success: n % 2 === 0 },
          { type: 'custom_component', component: 'ProductCard' },
        ]
      : undefined;
  return [
    { role: 'user', content: `question ${n}` },
    { role: 'assistant', content: `answer ${n}`, ...(tools ? { tools } : {}) },
  ];
}

function usageOf(n: number): TurnUsage {
  return {
    model: 'offline',
    source: 'consumer',
    inputTokens: 10 + n,
    outputTokens: 20 + n,
    cacheReadInputTokens: n % 5,
    cacheCreationInputTokens: n % 2,
    costUsd: `0.${String(1000 + n).padStart(6, '0')}`,
  };
}

const STORES = ['json', 'duckdb'] as const;

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** Runs a command without blocking this process (the platform under test serves the child). */
function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ signal: NodeJS.Signals | null; code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe.each(STORES)('the reference export sync client (%s store)', (kind) => {
  let clock: TestClock;
  let p: TestPlatform;
  let t: PlatformTable;
  const dirs: string[] = [];
  const stores: LocalStore[] = [];
  const newDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'export-sync-'));
    dirs.push(d);
    return d;
  };
  /** A store of this run's kind: a JSON directory, or a DuckDB file inside a fresh directory. */
  const openStore = async (dir = newDir()): Promise<LocalStore> => {
    const store = kind === 'json' ? new JsonDirStore(dir) : await DuckDbStore.open(join(dir, 'copy.duckdb'));
    stores.push(store);
    return store;
  };
  /**
   * Waiting (Retry-After, backoff) moves the platform's clock instead of the test's wall time. With
   * writers running it moves in steps of 100 ms, each taking 10 ms of real time, so a write in flight
   * sees the clock run at most ten times faster than real time, never jump.
   */
  const waitWithoutWriters = async (ms: number) => clock.advance(ms);
  const waitBesideWriters = async (ms: number) => {
    for (let left = ms; left > 0; left -= 100) {
      clock.advance(Math.min(100, left));
      await sleep(10);
    }
  };

  /** Every row of an export list by id, paged with `key` from the top with no filter. */
  const pageAll = async (path: string, key: string): Promise<Record<string, unknown>> => {
    const rows: Record<string, unknown> = {};
    let cursor: string | undefined;
    do {
      const res = await p.call('GET', `${path}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: key });
      expect(res.status, res.text).toBe(200);
      for (const row of res.body.data as { id: string | number }[]) rows[String(row.id)] = row;
      cursor = res.body.pagination.has_more ? res.body.pagination.next_cursor : undefined;
    } while (cursor);
    return rows;
  };

  beforeAll(async () => {
    clock = new TestClock();
    p = await startTestPlatform({ clock, visibilityDelayMs: VISIBILITY_DELAY_MS, appDeletionBatchSize: 10 });
    t = tableOf(p);
  });
  afterAll(async () => {
    for (const s of stores) await s.close?.();
    await p?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('waits out a 429, persists nothing from a pass that fails midway, and converges on the next run', async () => {
    const f = await p.fixture();
    const ids = await seedSessions(
      p,
      f.appId,
      Array.from({ length: 25 }, (_, i) => ({ email: i % 2 ? `user${i % 4}@example.com` : null, messages: ['2026-01-01T00:00:01Z', '2026-01-01T00:00:02Z'] })),
    );
    const dir = newDir();
    const deps: Writable<SyncDeps> = {
      transport: fetchTransport(p.baseUrl, f.orgKey),
      store: await openStore(dir),
      sleep: waitWithoutWriters,
      pageSize: 10,
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5, maxRateLimitWaits: 3 },
      // The spec's own loop, one transcript request per changed session: the other cases sync with the
      // transcripts in the session rows (include=messages), so both paths converge under test.
      transcripts: 'per-session',
      firstLoad: 'pages',
    };
    // Past the visibility delay, at the start of a rate-limit window (fixed minutes of the platform clock).
    clock.advance(VISIBILITY_DELAY_MS + 100);
    clock.advance(60_000 - (Math.floor(clock.nowUs() / 1000) % 60_000) + 10);
    // Spend most of the key's minute: the first run meets a 429 and waits for the next window.
    for (let i = 0; i < 110; i++) expect((await p.call('GET', '/api/v1/org/apps', { token: f.orgKey })).status).toBe(200);
    const first = await syncOnce(deps);
    expect(first.sessions).toMatchObject({ pages: 3, seen: 25, transcripts: 25, checkpoint: expect.stringMatching(/Z$/) });
    expect(first.requests.rate_limited).toBe(1);
    // What the target holds: the JSON files byte for byte, or everything the DuckDB tables read back as.
    const files = () => Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
    const persisted = async () => (kind === 'json' ? files() : deps.store.load());
    const before = await persisted();
    if (kind === 'json') expect(Object.keys(before).sort()).toEqual(['apps.json', 'sessions.json', 'state.json']);
    else expect((before as Awaited<ReturnType<LocalStore['load']>>).sessions.size).toBe(25);

    for (const [i, id] of ids.slice(0, 15).entries()) {
      await appendToSession(p.deps, { sessionId: id, messages: turn(i), usage: [usageOf(i)] });
    }
    for (let i = 0; i < 5; i++) await startSession(p.deps, { appId: f.appId, title: `new ${i}` });
    clock.advance(VISIBILITY_DELAY_MS + 100);

    // Page 2 and later of the sessions list (a cursor bounds the query below the visibility cutoff) fail.
    const fault = failCommands(t, (command, input) => {
      const values = (input.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
      return command === 'QueryCommand' && values[':pk'] === `ORGSESS#${f.orgId}` && !String(values[':hi']).endsWith('#~');
    });
    let failure: ExportApiError | undefined;
    try {
      await syncOnce(deps);
    } catch (err) {
      failure = err as ExportApiError;
    } finally {
      fault.remove();
    }
    expect(fault.fired).toBe(3);
    expect(failure).toMatchObject({ name: 'ExportApiError', status: 500, body: { error: { code: 'unavailable', message: 'Internal server error' } } });
    // Neither the checkpoint nor the rows of page 1 were written, and no temporary file is left.
    expect(await persisted()).toEqual(before);

    if (kind === 'duckdb') {
      // A process killed inside the sessions commit, after its rows were written and before COMMIT:
      // on reopening, neither those rows nor the new checkpoint are there.
      await deps.store.close!();
      const child = await run(
        process.execPath,
        ['--import', 'tsx', join(import.meta.dirname, 'export-sync-crash-child.ts'), join(dir, 'copy.duckdb'), p.baseUrl],
        {
          ...process.env,
          EXPORT_SYNC_KEY: f.orgKey,
        },
      );
      expect(child.signal, child.stderr).toBe('SIGKILL');
      expect(child.stdout).toContain('"killing":"sessions"');
      deps.store = await openStore(dir);
      expect(await persisted()).toEqual(before);
    }

    const next = await syncOnce(deps);
    expect(next.sessions.transcripts).toBe(20);
    expect(next.sessions.checkpoint! > first.sessions.checkpoint!).toBe(true);
    expect(next.usage.seen).toBe(15);
    expect(differences(imageOf(await deps.store.load()), await readTruth(p, t, f.orgId))).toEqual([]);
  });

  it('converges field for field with concurrent writers, late commits, deletions and an app deletion', async () => {
    const f = await p.fixture();
    // 11 keys the sync client rotates through, then 3 only the final checks use: the client may have
    // spent a rotated key's whole minute of requests by the time the checks page the export.
    const allKeys = await Promise.all(
      Array.from({ length: 14 }, async () => {
        const res = await p.admin('POST', `/orgs/${f.orgId}/keys`, { scopes: ['apps:read', 'transcripts:read', 'usage:read', 'tombstones:read'] });
        return res.body.data.key as string;
      }),
    );
    const extraKeys = allKeys.slice(0, 11);
    const checkKeys = allKeys.slice(11);
    const zdrApp = (await p.admin('POST', `/orgs/${f.orgId}/apps`, { name: 'Private App', settings: { zeroDataRetention: true } })).body.data.id as string;
    const doomedApp = (await p.admin('POST', `/orgs/${f.orgId}/apps`, { name: 'Doomed App' })).body.data.id as string;
    // 100 sessions in the app that will be deleted, ten batches of its deletion: some of known consumers,
    // some anonymous, some with messages.
    const doomedIds = await seedSessions(
      p,
      doomedApp,
      Array.from({ length: DOOMED_SESSIONS }, (_, i) => ({
        ...(i % 10 === 0 ? { email: `doomed${i % 30}@example.com` } : i % 10 === 1 ? { email: null } : {}),
        messages: i % 4 === 3 ? ['2026-01-01T00:00:01Z'] : [],
      })),
    );
    // 24 sessions of 8 known consumers in the app that stays; 6 of the consumers are deleted during the run.
    const live = await seedSessions(
      p,
      f.appId,
      Array.from({ length: 24 }, (_, i) => ({
        email: `user${i % 8}@example.com`,
        messages: ['2026-01-02T00:00:01Z', '2026-01-02T00:00:02Z', '2026-01-02T00:00:03Z'],
      })),
    );
    // Sessions only the rename writer touches: a rename committed late has nothing else to re-surface it.
    const renameOnly = await seedSessions(
      p,
      f.appId,
      Array.from({ length: 12 }, () => ({ messages: ['2026-01-03T00:00:01Z'] })),
    );
    // Anchors for the final coverage checks, kept out of `live` so no writer deletes them: however
    // the writers get scheduled on a loaded machine, a ZDR session and a tool-marked message exist.
    const zdrAnchor = await startSession(p.deps, { appId: zdrApp, title: 'zdr anchor' });
    await appendToSession(p.deps, { sessionId: zdrAnchor.id, messages: turn(0), usage: [usageOf(0)] });
    const toolAnchor = await startSession(p.deps, { appId: f.appId, title: 'tool anchor' });
    await appendToSession(p.deps, {
      sessionId: toolAnchor.id,
      messages: [
        { role: 'user', content: 'use lookup' },
        { role: 'assistant', content: 'looked up', tools: [{ id: 'call_anchor', name: 'lookup', type: 'tool', success: true }] },
      ],
      usage: [usageOf(1)],
    });
    const consumerIds = await Promise.all(Array.from({ length: 8 }, async (_, i) => (await p.deps.consumers.findByEmail(f.appId, `user${i}@example.com`))!.id));

    // The customer already had a copy when the writers start, paged in (transcripts with the rows).
    // Small pages: every pass pages.
    const dir = newDir();
    const deps: SyncDeps = {
      transport: rotatingTransport(p.baseUrl, [f.orgKey, ...extraKeys]),
      store: await openStore(dir),
      sleep: waitBesideWriters,
      pageSize: 10,
      firstLoad: 'pages',
      pollMs: 100,
    };
    clock.advance(VISIBILITY_DELAY_MS + 100);
    const baseline = await syncOnce(deps);
    expect(baseline.copy.sessions).toBe(DOOMED_SESSIONS + 38);
    expect(baseline.copy.apps).toBe(3);

    // Slow writers: some session creates, messages, usage rows, tombstones and renames commit late:
    // half ~1 s after their time was stamped (over half the visibility delay), half 2.2 s (over the
    // whole delay: only the re-touch and re-stamp rules of docs/design.md §3 save those).
    const lateBy = (n: number) => (n % 2 === 0 ? 2200 : 900 + (n % 4) * 100);
    const slowType = (type: string, every: number) =>
      delayWrites(t, { every, delayMs: lateBy, match: (command, input) => command === 'PutItemCommand' && itemType(input) === type });
    // And slow session deletes hide the session only 2.5 s (over the visibility delay) after its
    // tombstone: the sync can apply the tombstone while the session is still listed.
    const slowHides = new Set<string>();
    const slow = [
      slowType('session', 3),
      slowType('message', 10),
      slowType('usage', 10),
      slowType('tombstone', 20),
      delayWrites(t, {
        every: 2,
        delayMs: lateBy,
        match: (command, input) => command === 'UpdateItemCommand' && ':title' in ((input.ExpressionAttributeValues ?? {}) as object),
      }),
      delayWrites(t, {
        every: 1,
        delayMs: () => 2500,
        match: (command, input) =>
          command === 'UpdateItemCommand' &&
          String(input.UpdateExpression).includes('deletedAtUs') &&
          slowHides.has(String((input.Key as { pk?: unknown } | undefined)?.pk).replace(/^SESSION#/, '')),
      }),
    ];

    const summaries: SyncSummary[] = [];
    let writing = true;
    // The first run while the writers write replaces the copy with a snapshot export taken meanwhile
    // (--full); the runs after it continue incrementally from its watermark.
    const syncLoop = (async () => {
      for (let run = 0; writing; run++) summaries.push(await syncOnce(run === 0 ? { ...deps, full: true } : deps));
    })();

    const errors: string[] = [];
    const deletedConsumers: string[] = [];
    const slowDeletes: Promise<void>[] = [];
    const random = rng(42);
    const pick = () => live[Math.floor(random() * live.length)]!;
    // Each writer makes a fixed number of changes: a loaded machine makes the run longer, not thinner, so
    // every check below always has the same amount of work to look at.
    const writer = async (name: string, pauseMs: number, count: number, op: (n: number) => Promise<void>) => {
      for (let n = 0; n < count; n++) {
        try {
          await op(n);
        } catch (err) {
          if (!isNotFound(err)) errors.push(`${name} #${n}: ${String(err)}`);
        }
        await sleep(pauseMs);
      }
    };
    const adminOk = async (method: string, path: string, ok: number[]) => {
      const res = await p.admin(method, path);
      if (!ok.includes(res.status)) errors.push(`${method} ${path}: ${res.status} ${res.text}`);
    };

    await Promise.all([
      ...[0, 1].map((w) =>
        writer(`create${w}`, 100, 5, async (n) => {
          const k = n * 2 + w;
          const s = await startSession(p.deps, {
            appId: k % 5 === 4 ? zdrApp : f.appId,
            consumerId: k % 5 !== 4 && k % 4 === 1 ? consumerIds[k % 8]! : null,
            title: `session ${k}`,
            externalId: k % 2 ? `web:${k}` : null,
            queryParams: [
              { name: 'utm_source', value: `w${k}` },
              { name: 'bt', value: 'control' },
            ],
          });
          live.push(s.id);
          await appendToSession(p.deps, { sessionId: s.id, messages: turn(k), usage: [usageOf(k)] });
        }),
      ),
      // Sessions that stay empty unless another writer picks them.
      writer(
        'start',
        250,
        10,
        async (n) => void live.push((await startSession(p.deps, { appId: f.appId, title: `empty ${n}`, externalId: `whatsapp:+1555${n}` })).id),
      ),
      ...[0, 1, 2].map((w) =>
        writer(
          `append${w}`,
          80,
          7,
          async (n) => void (await appendToSession(p.deps, { sessionId: pick(), messages: turn(n).slice(0, 1 + (n % 2)), usage: [usageOf(n)] })),
        ),
      ),
      writer('edit', 100, 16, async (n) => {
        const sessionId = pick();
        const messages = await p.deps.sessions.listMessages(sessionId);
        const m = messages[Math.floor(random() * messages.length)];
        if (!m) return;
        if (n % 3 === 2) await deleteMessage(p.deps, { sessionId, messageId: m.id });
        else await editMessage(p.deps, { sessionId, messageId: m.id, content: `edited ${n}` });
      }),
      writer('rename', 120, 9, (n) => renameSession(p.deps, { sessionId: n % 2 ? renameOnly[(n >> 1) % renameOnly.length]! : pick(), title: `renamed ${n}` })),
      writer('delete', 400, 6, async () => {
        const [sessionId] = live.splice(Math.floor(random() * live.length), 1);
        if (sessionId) await adminOk('DELETE', `/sessions/${sessionId}`, [200, 404]);
      }),
      // Slow removals, each with activity on the session after its tombstone and before it is hidden.
      writer('delete-slow', 300, 8, async (n) => {
        const [sessionId] = live.splice(Math.floor(random() * live.length), 1);
        if (!sessionId) return;
        slowHides.add(sessionId);
        slowDeletes.push(adminOk('DELETE', `/sessions/${sessionId}`, [200, 404]));
        await sleep(300);
        await appendToSession(p.deps, { sessionId, messages: turn(n).slice(0, 1), usage: [usageOf(n)] });
      }),
      // Six of the eight consumers go, one every half second, while sessions keep being started for them
      // and single deletes hit their sessions.
      writer('consumers', 500, 6, async (n) => {
        await adminOk('DELETE', `/consumers/${consumerIds[n]}`, [200]);
        deletedConsumers.push(consumerIds[n]!);
      }),
      // Activity on the doomed app's sessions while its deletion runs.
      writer(
        'doomed',
        150,
        8,
        async (n) =>
          void (await appendToSession(p.deps, {
            sessionId: doomedIds[Math.floor(random() * doomedIds.length)]!,
            messages: turn(n).slice(0, 1),
            usage: [usageOf(n)],
          })),
      ),
      (async () => {
        await sleep(1000);
        await adminOk('DELETE', `/apps/${doomedApp}`, [202]);
      })(),
    ]);
    await Promise.all(slowDeletes);
    writing = false;
    await syncLoop;
    for (const d of slow) d.remove();
    const delayed = slow.reduce((n, d) => n + d.delayed, 0);

    // Let the app deletion finish, then move past the visibility delay: one more run must converge.
    for (let round = 0; (await p.deps.apps.listPendingDeletion(100)).some((a) => a.id === doomedApp); round++) {
      if (round > 40) throw new Error('the app deletion did not finish');
      await p.drainQueues();
    }
    clock.advance(VISIBILITY_DELAY_MS + 500);
    const last = await syncOnce(deps);

    expect(errors).toEqual([]);
    const truth = await readTruth(p, t, f.orgId);
    const local = await deps.store.load();
    expect(differences(imageOf(local), truth)).toEqual([]);
    // The export itself, paged in full now that nothing is held back, agrees with the table.
    expect(await pageAll(`/api/v1/org/sessions`, checkKeys[0]!)).toEqual(Object.fromEntries(Object.entries(truth.sessions).map(([id, s]) => [id, s.session])));
    expect(await pageAll(`/api/v1/org/usage`, checkKeys[1]!)).toEqual(truth.usage);
    // The deleted app left the copy's apps with the list.
    const apps = (await p.call('GET', '/api/v1/org/apps', { token: checkKeys[2]! })).body.data as { id: string }[];
    expect(Object.fromEntries(local.apps)).toEqual(Object.fromEntries(apps.map((a) => [a.id, a])));
    expect(local.apps.has(doomedApp)).toBe(false);

    // No deleted session is in the copy: not the app's, not the consumers', not the single deletes.
    const tombstones = await tombstonesOf(t, f.orgId);
    const deletedSessions = new Set(tombstones.filter((x) => x.resourceType === 'session').map((x) => x.resourceId));
    expect(doomedIds.filter((id) => !deletedSessions.has(id))).toEqual([]);
    expect([...deletedSessions].filter((id) => local.sessions.has(id) || id in truth.sessions)).toEqual([]);
    const tombstoned = new Set(local.state.tombstonedSessionIds);
    expect([...deletedSessions].filter((id) => !tombstoned.has(id))).toEqual([]);
    const ingested = new Set(local.state.ingestedTombstoneIds);
    expect(tombstones.filter((x) => !ingested.has(x.id)).map((x) => x.id)).toEqual([]);
    expect(new Set(local.state.erasedConsumerIds)).toEqual(new Set(tombstones.filter((x) => x.resourceType === 'consumer').map((x) => x.resourceId)));

    // The run exercised what it claims to.
    const all = [baseline, ...summaries, last];
    const total = (of: (s: SyncSummary) => number) => all.reduce((n, s) => n + of(s), 0);
    expect(summaries.length).toBeGreaterThanOrEqual(3);
    // The baseline paged; the first run during the writes loaded a snapshot export; the rest were incremental.
    expect(baseline.snapshot).toBeNull();
    expect(summaries[0]!.snapshot).toMatchObject({ files: expect.any(Number), updated_after: expect.any(String) });
    expect(summaries.slice(1).every((s) => s.snapshot === null)).toBe(true);
    expect(delayed).toBeGreaterThanOrEqual(20);
    expect(total((s) => s.sessions.skipped_tombstoned)).toBeGreaterThan(0);
    expect(tombstones.filter((x) => x.cause === 'app_deleted' && x.resourceType === 'session')).toHaveLength(DOOMED_SESSIONS);
    expect(deletedConsumers.length).toBeGreaterThanOrEqual(3);
    expect(deletedConsumers.filter((id) => !tombstones.some((x) => x.resourceType === 'consumer' && x.resourceId === id))).toEqual([]);
    expect(Object.values(truth.sessions).some((s) => s.zdr)).toBe(true);
    expect(Object.values(truth.sessions).some((s) => s.messages.some((m) => (m as { tools?: unknown }).tools))).toBe(true);
    const orphans = (await Promise.all([...deletedSessions].map((id) => itemsUnder(t, `SESSION#${id}`)))).flat();
    console.log(
      JSON.stringify({
        cycles_during_writes: summaries.length,
        requests: total((s) => s.requests.total),
        rate_limited: total((s) => s.requests.rate_limited),
        transcripts: total((s) => s.sessions.transcripts),
        gone_404: total((s) => s.sessions.gone),
        skipped_tombstoned: total((s) => s.sessions.skipped_tombstoned),
        tombstones: tombstones.length,
        delayed_writes: delayed,
        live_sessions: Object.keys(truth.sessions).length,
        usage_rows: Object.keys(truth.usage).length,
        orphan_items_of_deleted_sessions: orphans.length,
        last_run: last.sessions,
      }),
    );
  }, 120_000);
});
