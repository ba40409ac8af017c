/**
 * Bulk snapshot export jobs (functions/export/app/export-jobs.ts, docs/adr/0031) over in-memory ports:
 * a job store that honours the version condition, a queue that records what is sent, objects that
 * record puts (and can fail once), and an ExportReader that pages sorted arrays by (sortUs, id)
 * descending under the window's upper bound, `after` and `limit`, as the Dynamo reader does. The
 * worker is driven by hand, message by message, so crashes, redeliveries, duplicates and version
 * races happen exactly where a test puts them.
 */
import { randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { createExportJob, getExportJob, runExportChunk, type ExportJobDeps } from '../../functions/export/app/export-jobs';
import {
  CHUNK_ROWS,
  DOWNLOAD_URL_SECONDS,
  EXPORT_LISTS,
  requestedLists,
  STALLED_AFTER_US,
  type ExportChunkMessage,
  type ExportJob,
  type ExportList,
} from '../../functions/export/domain/export-job';
import type { KeysetPosition } from '../../functions/export/domain/cursor';
import { exportApp, exportSessionWithMessages, exportTombstone, exportUsageRow } from '../../functions/export/domain/export-rows';
import type { ExportChunkQueue, ExportJobStore, ExportObjects, KeysetPage, KeysetWindow } from '../../functions/export/app/export-ports';
import { lastActivityOf, type Message, type Session } from '../../functions/conversations/domain/session';
import type { Tombstone } from '../../functions/conversations/domain/tombstone';
import type { UsageRow } from '../../functions/conversations/domain/usage';
import { DEFAULT_APP_SETTINGS, type App } from '../../functions/tenancy/domain/app';
import type { OrgScope } from '../../functions/kernel/domain/scopes';
import { DomainError } from '../../functions/kernel/domain/errors';
import { rejection } from '../support/domain-error';

const ORG = 'org-1';
const OTHER_ORG = 'org-2';
const APP = 'app-plain';
const ZDR_APP = 'app-zdr';
const START_US = 1_800_000_000_000_000;
const DELAY_MS = 2_000;
const ALL_SCOPES: readonly OrgScope[] = ['apps:read', 'transcripts:read', 'usage:read', 'tombstones:read'];

// ---------------------------------------------------------------------------------------------------
// In-memory ports
// ---------------------------------------------------------------------------------------------------

/** Jobs by id, replaced only at the version they were read at; `replaceFailures` throw before the write (a crash). */
class FakeJobStore implements ExportJobStore {
  readonly jobs = new Map<string, ExportJob>();
  readonly expiries = new Map<string, number>();
  /** Successful writes (create excluded). */
  writes = 0;
  /** Writes refused by the version condition. */
  conflicts = 0;
  /** The next `replace` calls that throw (the worker dies before its job write lands). */
  replaceFailures = 0;
  /** Runs once, at the start of the next `replace`, before the condition is checked (another writer comes first). */
  beforeNextReplace?: () => Promise<void>;

  async create(job: ExportJob, expiresAtUs: number): Promise<void> {
    if (this.jobs.has(job.id)) throw new Error(`export job ${job.id} exists already`);
    this.jobs.set(job.id, structuredClone(job));
    this.expiries.set(job.id, expiresAtUs);
  }

  async get(id: string): Promise<ExportJob | undefined> {
    const job = this.jobs.get(id);
    return job ? structuredClone(job) : undefined;
  }

  async replace(next: ExportJob, expectedVersion: number): Promise<boolean> {
    if (this.replaceFailures > 0) {
      this.replaceFailures--;
      throw new Error('worker crashed before the job write');
    }
    const hook = this.beforeNextReplace;
    this.beforeNextReplace = undefined;
    if (hook) await hook();
    const current = this.jobs.get(next.id);
    if (!current || current.version !== expectedVersion) {
      this.conflicts++;
      return false;
    }
    this.jobs.set(next.id, structuredClone(next));
    this.writes++;
    return true;
  }
}

/** Records every message sent; `sendFailures` throw instead (the worker dies before the next send). */
class FakeQueue implements ExportChunkQueue {
  readonly sent: ExportChunkMessage[] = [];
  /** Messages not yet handed to a worker by `drain`. */
  readonly pending: ExportChunkMessage[] = [];
  sendFailures = 0;

  async send(message: ExportChunkMessage): Promise<void> {
    if (this.sendFailures > 0) {
      this.sendFailures--;
      throw new Error('worker crashed before the next send');
    }
    this.sent.push({ ...message });
    this.pending.push({ ...message });
  }

  /** Takes what was sent since the last call. */
  take(): ExportChunkMessage[] {
    return this.pending.splice(0, this.pending.length);
  }
}

/** Objects by key, as gzipped NDJSON bytes; every put recorded; `putFailures` throw before anything is written. */
class FakeObjects implements ExportObjects {
  readonly objects = new Map<string, Buffer>();
  readonly puts: { key: string; rows: number }[] = [];
  readonly urls: { key: string; seconds: number }[] = [];
  putFailures = 0;

  async putNdjson(key: string, lines: readonly string[]): Promise<number> {
    if (this.putFailures > 0) {
      this.putFailures--;
      throw new Error('object write failed');
    }
    const body = gzipSync(lines.length ? `${lines.join('\n')}\n` : '');
    this.objects.set(key, body);
    this.puts.push({ key, rows: lines.length });
    return body.byteLength;
  }

  async downloadUrl(key: string, seconds: number): Promise<string> {
    this.urls.push({ key, seconds });
    return `https://objects.test/${key}?expires=${seconds}`;
  }

  /** The lines an object holds now. */
  lines(key: string): string[] {
    const body = this.objects.get(key);
    if (!body) throw new Error(`no object ${key}`);
    return gunzipSync(body)
      .toString('utf8')
      .split('\n')
      .filter((l) => l !== '');
  }
}

const byPositionDesc = (a: KeysetPosition, b: KeysetPosition) => b.sortUs - a.sortUs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
const below = (p: KeysetPosition, after: KeysetPosition) => p.sortUs < after.sortUs || (p.sortUs === after.sortUs && p.id < after.id);

/** One keyset page of `rows` (positions from `positionOf`) as the Dynamo reader answers it. */
function keysetPage<T>(rows: readonly T[], positionOf: (row: T) => KeysetPosition, window: KeysetWindow): KeysetPage<T> {
  const candidates = rows
    .filter((r) => {
      const p = positionOf(r);
      return p.sortUs <= window.upperUs && p.sortUs >= (window.lowerUs ?? 0) && (!window.after || below(p, window.after));
    })
    .sort((a, b) => byPositionDesc(positionOf(a), positionOf(b)));
  const page = candidates.slice(0, window.limit);
  const tail = page[page.length - 1];
  return {
    rows: page,
    hasMore: candidates.length > page.length,
    ...(tail ? { last: positionOf(tail) } : window.after ? { last: window.after } : {}),
  };
}

const sessionPosition = (s: Session): KeysetPosition => ({ sortUs: lastActivityOf(s), id: s.id });
const usageKey = (id: number) => String(id).padStart(12, '0');
const usagePosition = (u: UsageRow): KeysetPosition => ({ sortUs: u.createdAtUs, id: usageKey(u.id) });
const tombstonePosition = (t: Tombstone): KeysetPosition => ({ sortUs: t.deletedAtUs, id: t.id });

interface World {
  readonly deps: ExportJobDeps;
  readonly jobs: FakeJobStore;
  readonly queue: FakeQueue;
  readonly objects: FakeObjects;
  /** The index (what the reader pages); a session missing from `live` is gone since the index read. */
  readonly sessions: Session[];
  readonly live: Map<string, Session>;
  readonly transcripts: Map<string, Message[]>;
  readonly usage: UsageRow[];
  readonly tombstones: Tombstone[];
  readonly apps: App[];
  /** Every window the reader was asked for, per list. */
  readonly windows: { list: Exclude<ExportList, 'apps'>; window: KeysetWindow }[];
  readonly transcriptReads: string[];
  readonly getReads: string[];
  /** Runs before each sessions page is answered (a writer acting between two reads). */
  onSessionsPage?: (window: KeysetWindow) => Promise<void> | void;
  now: number;
  advance(us: number): void;
}

function app(id: string, orgId: string, zdr: boolean, createdAtUs: number): App {
  return {
    id,
    orgId,
    name: id,
    slug: id,
    appNameId: `${id}-1`,
    settings: { ...DEFAULT_APP_SETTINGS, zeroDataRetention: zdr },
    createdAtUs,
    updatedAtUs: createdAtUs,
  };
}

function world(): World {
  const w: World = {
    jobs: new FakeJobStore(),
    queue: new FakeQueue(),
    objects: new FakeObjects(),
    sessions: [],
    live: new Map(),
    transcripts: new Map(),
    usage: [],
    tombstones: [],
    apps: [
      app(APP, ORG, false, START_US - 10_000_000),
      app(ZDR_APP, ORG, true, START_US - 9_000_000),
      app('app-foreign', OTHER_ORG, false, START_US - 8_000_000),
    ],
    windows: [],
    transcriptReads: [],
    getReads: [],
    now: START_US,
    advance(us: number) {
      w.now += us;
    },
    deps: undefined as unknown as ExportJobDeps,
  };
  const deps = {
    clock: { nowUs: () => w.now },
    settings: { visibilityDelayMs: DELAY_MS },
    ids: { uuid: () => randomUUID() },
    apps: {
      get: async (id: string) => w.apps.find((a) => a.id === id),
      listByOrg: async (orgId: string) => w.apps.filter((a) => a.orgId === orgId).sort((a, b) => b.createdAtUs - a.createdAtUs),
    },
    sessions: {
      get: async (id: string) => {
        w.getReads.push(id);
        return w.live.get(id);
      },
      transcript: async (id: string) => {
        w.transcriptReads.push(id);
        const s = w.live.get(id);
        return s ? { session: s, messages: w.transcripts.get(id) ?? [] } : undefined;
      },
    },
    exportReader: {
      sessions: async (orgId: string, window: KeysetWindow) => {
        w.windows.push({ list: 'sessions', window });
        await w.onSessionsPage?.(window);
        return keysetPage(
          w.sessions.filter((s) => s.orgId === orgId),
          sessionPosition,
          window,
        );
      },
      usage: async (orgId: string, window: KeysetWindow) => {
        w.windows.push({ list: 'usage', window });
        return keysetPage(
          w.usage.filter((u) => u.orgId === orgId),
          usagePosition,
          window,
        );
      },
      tombstones: async (orgId: string, window: KeysetWindow) => {
        w.windows.push({ list: 'tombstones', window });
        return keysetPage(
          w.tombstones.filter((t) => t.orgId === orgId),
          tombstonePosition,
          window,
        );
      },
    },
    exportJobs: w.jobs,
    exportChunks: w.queue,
    exportObjects: w.objects,
  };
  (w as { deps: ExportJobDeps }).deps = deps as unknown as ExportJobDeps;
  return w;
}

/** A session of `appId` whose last activity is `activityUs`, indexed and live, with `messages` messages (a tool marker on the second). */
function addSession(w: World, activityUs: number, opts: { appId?: string; orgId?: string; id?: string; messages?: number } = {}): Session {
  const id = opts.id ?? randomUUID();
  const s: Session = {
    id,
    orgId: opts.orgId ?? ORG,
    appId: opts.appId ?? APP,
    consumerId: null,
    consumerEmail: null,
    title: `t-${id.slice(0, 8)}`,
    source: 'APP',
    externalId: null,
    queryParams: [{ name: 'utm', value: 'x' }],
    startedAtUs: activityUs - 1_000,
    lastMessageAtUs: activityUs,
    touchedAtUs: activityUs - 500,
  };
  w.sessions.push(s);
  w.live.set(id, s);
  const n = opts.messages ?? 1;
  w.transcripts.set(
    id,
    Array.from({ length: n }, (_, i) => ({
      id: `${id}-m${i}`,
      sessionId: id,
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `message ${i} of ${id}`,
      createdAtUs: s.startedAtUs + i,
      ...(i === 1 ? { tools: [{ id: 'call-1', name: 'search', type: 'function', success: true }] } : {}),
    })),
  );
  return s;
}

function addUsage(w: World, createdAtUs: number, id: number): UsageRow {
  const row: UsageRow = {
    id,
    orgId: ORG,
    appId: APP,
    sessionId: null,
    consumerId: null,
    model: 'model-a',
    source: 'consumer',
    inputTokens: id,
    outputTokens: 2 * id,
    cacheReadInputTokens: 0,
    cacheCreationInputTokens: 0,
    costUsd: `0.${String(id).padStart(4, '0')}`,
    createdAtUs,
  };
  w.usage.push(row);
  return row;
}

function addTombstone(w: World, deletedAtUs: number): Tombstone {
  const t: Tombstone = {
    id: `${String(deletedAtUs).padStart(16, '0')}${randomUUID().slice(0, 8)}`,
    orgId: ORG,
    resourceType: 'session',
    resourceId: randomUUID(),
    cause: 'consumer_deleted',
    deletedAtUs,
  };
  w.tombstones.push(t);
  return t;
}

/** The line the job must write for a session, as `include=messages,tool_details` shows it. */
function sessionLine(w: World, s: Session): string {
  const zdr = w.apps.find((a) => a.id === s.appId)!.settings.zeroDataRetention;
  return JSON.stringify(exportSessionWithMessages({ session: s, messages: zdr ? [] : (w.transcripts.get(s.id) ?? []), zdr }, true));
}

const create = (w: World, body: Record<string, unknown> = {}, scopes: readonly OrgScope[] = ALL_SCOPES) =>
  createExportJob(w.deps, { orgId: ORG, scopes, body });

const job = (w: World, id: string): ExportJob => structuredClone(w.jobs.jobs.get(id)!);
const progressOf = (j: ExportJob, list: ExportList) => j.progress.find((p) => p.list === list)!;

/**
 * Hands every pending message to a worker, one at a time in the order sent (new ones join the end),
 * until none is left; returns what was handled.
 */
async function drain(w: World, opts: { max?: number } = {}): Promise<ExportChunkMessage[]> {
  const handled: ExportChunkMessage[] = [];
  while (w.queue.pending.length) {
    const m = w.queue.pending.shift()!;
    await runExportChunk(w.deps, m, { redelivered: false, last: false });
    handled.push(m);
    if (handled.length > (opts.max ?? 1_000)) throw new Error('the job never ends');
  }
  return handled;
}

/** The lines of a list's files in the job's order. */
function linesOf(w: World, j: ExportJob, list: ExportList): string[] {
  return j.files.filter((f) => f.list === list).flatMap((f) => w.objects.lines(f.key));
}

/** Session activities from `topUs` down, `n` of them, three sessions sharing each microsecond. */
function manySessions(w: World, n: number, topUs: number, opts: { zdrEvery?: number } = {}): Session[] {
  return Array.from({ length: n }, (_, i) =>
    addSession(w, topUs - Math.floor(i / 3), {
      appId: opts.zdrEvery && i % opts.zdrEvery === 0 ? ZDR_APP : APP,
      // Zero-padded ids so ties sort predictably in assertions as well.
      id: `s-${String(i).padStart(6, '0')}`,
    }),
  );
}

// ---------------------------------------------------------------------------------------------------

describe('createExportJob and the worker: a whole job', () => {
  it('completes several lists; 12,000 sessions become 3 chunks of 5,000/5,000/2,000 that continue exactly; the last message of a list has no successor', async () => {
    const w = world();
    const watermark = START_US - DELAY_MS * 1000;
    // Ties of three sessions on one microsecond straddle both chunk boundaries (rows 4,998-5,000 and 9,999-10,001).
    const sessions = manySessions(w, 12_000, watermark - 1_000_000, { zdrEvery: 7 });
    const usage = Array.from({ length: 250 }, (_, i) => addUsage(w, watermark - 5_000_000 + i * 10, i + 1));
    const tombstones = Array.from({ length: 3 }, (_, i) => addTombstone(w, watermark - 100 - i));
    // Another org's rows never show.
    addSession(w, watermark - 10, { orgId: OTHER_ORG, appId: 'app-foreign' });

    const created = await create(w);
    expect(created.lists).toEqual(['apps', 'sessions', 'usage', 'tombstones']);
    expect(created.watermarkUs).toBe(watermark);
    expect(created.status).toBe('running');
    expect(w.jobs.expiries.get(created.id)).toBe(START_US + 7 * 86_400 * 1_000_000);
    expect(w.queue.sent).toEqual(EXPORT_LISTS.map((list) => ({ jobId: created.id, list, chunk: 0 })));

    const handled = await drain(w);
    const done = job(w, created.id);
    expect(done.status).toBe('completed');
    expect(done.completedAtUs).toBeDefined();
    expect(done.progress.every((p) => p.done)).toBe(true);

    // One message per chunk: sessions 0, 1, 2 and nothing after the last; one chunk for every other list.
    expect(handled.filter((m) => m.list === 'sessions').map((m) => m.chunk)).toEqual([0, 1, 2]);
    for (const list of ['apps', 'usage', 'tombstones'] as const) expect(handled.filter((m) => m.list === list).map((m) => m.chunk)).toEqual([0]);
    expect(w.queue.sent).toHaveLength(6);
    expect(progressOf(done, 'sessions').chunk).toBe(3);

    const sessionFiles = done.files.filter((f) => f.list === 'sessions');
    expect(sessionFiles.map((f) => [f.chunk, f.rows])).toEqual([
      [0, CHUNK_ROWS],
      [1, CHUNK_ROWS],
      [2, 2_000],
    ]);
    // Each attempt writes its own object: <list>-<chunk>-<attempt>.
    expect(sessionFiles[2]!.key).toMatch(new RegExp(`^exports/${ORG}/${created.id}/sessions-00002-[0-9a-f]{8}\\.ndjson\\.gz$`));
    for (const f of done.files) {
      expect(f.bytes).toBe(w.objects.objects.get(f.key)!.byteLength);
      expect(w.objects.lines(f.key)).toHaveLength(f.rows);
    }

    // Positions continue exactly: every session once, in (last activity, id) descending order, as the list shows it.
    const expected = [...sessions].sort((a, b) => byPositionDesc(sessionPosition(a), sessionPosition(b)));
    const lines = linesOf(w, done, 'sessions');
    expect(lines).toHaveLength(12_000);
    expect(new Set(lines.map((l) => JSON.parse(l).id)).size).toBe(12_000);
    expect(lines).toEqual(expected.map((s) => sessionLine(w, s)));
    // The tie at the first boundary is split between chunks 0 and 1 without loss.
    expect(JSON.parse(w.objects.lines(sessionFiles[0]!.key).at(-1)!).id).toBe(expected[4_999]!.id);
    expect(JSON.parse(w.objects.lines(sessionFiles[1]!.key)[0]!).id).toBe(expected[5_000]!.id);
    // ZDR rows: messages [] and zdr true, the transcript never read; the others with tool markers.
    const zdrRow = JSON.parse(lines.find((l) => JSON.parse(l).app_id === ZDR_APP)!);
    expect(zdrRow).toMatchObject({ messages: [], zdr: true });
    expect(w.transcriptReads.filter((id) => w.live.get(id)?.appId === ZDR_APP)).toEqual([]);
    const plainRow = JSON.parse(lines.find((l) => JSON.parse(l).app_id === APP)!);
    expect(plainRow.zdr).toBe(false);
    expect(plainRow.messages).toHaveLength(1);

    expect(linesOf(w, done, 'usage')).toEqual(
      [...usage].sort((a, b) => byPositionDesc(usagePosition(a), usagePosition(b))).map((u) => JSON.stringify(exportUsageRow(u))),
    );
    expect(linesOf(w, done, 'tombstones')).toEqual(tombstones.map((t) => JSON.stringify(exportTombstone(t))));
    expect(linesOf(w, done, 'apps')).toEqual(
      w.apps
        .filter((a) => a.orgId === ORG)
        .sort((a, b) => b.createdAtUs - a.createdAtUs)
        .map((a) => JSON.stringify(exportApp(a))),
    );

    // Every read is a keyset window of 100 bounded above by the watermark.
    expect(w.windows.length).toBeGreaterThan(120);
    for (const { window } of w.windows) expect(window).toMatchObject({ upperUs: watermark, limit: 100 });
  });

  it('writes one file for an empty list and none for a list that ends exactly on a chunk boundary', async () => {
    const w = world();
    const watermark = START_US - DELAY_MS * 1000;
    manySessions(w, 2 * CHUNK_ROWS, watermark - 1_000);
    const created = await create(w, { lists: ['sessions', 'usage'] });
    expect(created.lists).toEqual(['sessions', 'usage']);
    const handled = await drain(w);
    const done = job(w, created.id);
    expect(done.status).toBe('completed');
    // 10,000 rows: the second chunk sees the end of the list, so there is no empty third chunk.
    expect(handled.filter((m) => m.list === 'sessions').map((m) => m.chunk)).toEqual([0, 1]);
    expect(done.files.map((f) => [f.list, f.chunk, f.rows])).toEqual(
      expect.arrayContaining([
        ['sessions', 0, CHUNK_ROWS],
        ['sessions', 1, CHUNK_ROWS],
        ['usage', 0, 0],
      ]),
    );
    expect(done.files).toHaveLength(3);
    const usageKey = done.files.find((f) => f.list === 'usage')!.key;
    expect(w.objects.lines(usageKey)).toEqual([]);
    expect(gunzipSync(w.objects.objects.get(usageKey)!).byteLength).toBe(0);
  });

  it('never holds a row above the watermark: rows written after the job, and rows whose activity moved above it', async () => {
    const w = world();
    const watermark = START_US - DELAY_MS * 1000;
    const atMark = addSession(w, watermark);
    const justAbove = addSession(w, watermark + 1);
    const older = addSession(w, watermark - 50);
    const moved = addSession(w, watermark - 40);
    const usageAt = addUsage(w, watermark, 1);
    addUsage(w, watermark + 1, 2);
    const tombAt = addTombstone(w, watermark);
    addTombstone(w, watermark + 1);

    const created = await create(w);
    expect(created.watermarkUs).toBe(watermark);
    // After the job: new rows, a session touched (touch first: its activity moves above the watermark).
    w.advance(60_000_000);
    addSession(w, w.now - 1);
    addUsage(w, w.now - 1, 3);
    addTombstone(w, w.now - 1);
    (moved as { touchedAtUs: number }).touchedAtUs = w.now;
    await drain(w);

    const done = job(w, created.id);
    expect(done.status).toBe('completed');
    expect(linesOf(w, done, 'sessions').map((l) => JSON.parse(l).id)).toEqual([atMark.id, older.id]);
    expect(linesOf(w, done, 'sessions').map((l) => JSON.parse(l).id)).not.toContain(justAbove.id);
    expect(linesOf(w, done, 'usage').map((l) => JSON.parse(l).id)).toEqual([usageAt.id]);
    expect(linesOf(w, done, 'tombstones').map((l) => JSON.parse(l).id)).toEqual([tombAt.id]);
  });

  it('leaves out a session removed between the index read and its transcript read, and still moves on past it', async () => {
    const w = world();
    const watermark = START_US - DELAY_MS * 1000;
    const all = manySessions(w, 250, watermark - 1_000, { zdrEvery: 2 });
    const sorted = [...all].sort((a, b) => byPositionDesc(sessionPosition(a), sessionPosition(b)));
    // Gone after the index read: a plain one, a ZDR one, and the last row of the first page (the page's position).
    const gone = [sorted[3]!, sorted[4]!, sorted[99]!];
    for (const s of gone) w.live.delete(s.id);
    const created = await create(w, { lists: ['sessions'] });
    await drain(w);
    const done = job(w, created.id);
    expect(done.status).toBe('completed');
    expect(done.files).toEqual([expect.objectContaining({ rows: 247 })]);
    expect(linesOf(w, done, 'sessions')).toEqual(sorted.filter((s) => !gone.includes(s)).map((s) => sessionLine(w, s)));
  });
});

describe('crashes, redeliveries and duplicates', () => {
  /** A running job over `n` sessions (and nothing else), its first message taken off the queue. */
  async function sessionsJob(n: number) {
    const w = world();
    manySessions(w, n, START_US - DELAY_MS * 1000 - 1_000);
    const created = await create(w, { lists: ['sessions'] });
    const [first] = w.queue.take();
    expect(first).toEqual({ jobId: created.id, list: 'sessions', chunk: 0 });
    return { w, id: created.id, first: first! };
  }

  it('a crash between the object write and the job write: the redelivery writes the chunk again and the job records it once', async () => {
    const { w, id, first } = await sessionsJob(7_000);
    w.jobs.replaceFailures = 1;
    await expect(runExportChunk(w.deps, first, { redelivered: false, last: false })).rejects.toThrow('worker crashed');
    expect(w.objects.puts).toEqual([{ key: expect.stringMatching(/sessions-00000-[0-9a-f]{8}\.ndjson\.gz$/), rows: CHUNK_ROWS }]);
    const before = job(w, id);
    expect(before.version).toBe(0);
    expect(before.files).toEqual([]);
    expect(w.queue.pending).toEqual([]);
    const firstBytes = w.objects.objects.get(w.objects.puts[0]!.key)!;

    await runExportChunk(w.deps, first, { redelivered: true, last: false });
    // Each attempt its own object; the job names the one whose write won (the first is left to expire).
    const [lost, won] = w.objects.puts.map((p) => p.key);
    expect(won).not.toBe(lost);
    // The same rows from the same position: the same bytes.
    expect(w.objects.objects.get(won!)!.equals(firstBytes)).toBe(true);
    const after = job(w, id);
    expect(after.version).toBe(1);
    expect(after.files).toEqual([{ list: 'sessions', chunk: 0, key: won, rows: CHUNK_ROWS, bytes: firstBytes.byteLength }]);
    expect(progressOf(after, 'sessions')).toMatchObject({ chunk: 1, done: false });
    expect(w.queue.take()).toEqual([{ jobId: id, list: 'sessions', chunk: 1 }]);

    // A further copy of chunk 0 changes nothing.
    await runExportChunk(w.deps, first, { redelivered: false, last: false });
    expect(job(w, id).version).toBe(1);
    expect(w.objects.puts).toHaveLength(2);

    w.queue.pending.push({ jobId: id, list: 'sessions', chunk: 1 });
    await drain(w);
    const done = job(w, id);
    expect(done.status).toBe('completed');
    expect(done.files.map((f) => [f.chunk, f.rows])).toEqual([
      [0, 5_000],
      [1, 2_000],
    ]);
    expect(new Set(linesOf(w, done, 'sessions')).size).toBe(7_000);
  });

  it('a chunk failing on its last delivery fails the job with the reason, and still fails (to the dead-letter queue)', async () => {
    const { w, id, first } = await sessionsJob(10);
    w.objects.putFailures = 1;
    await expect(runExportChunk(w.deps, first, { redelivered: true, last: true })).rejects.toThrow('object write failed');
    expect(job(w, id)).toMatchObject({ status: 'failed', error: 'chunk 0 of sessions failed: object write failed', version: 1 });
    expect(w.queue.pending).toEqual([]);
    // A copy of the message after that changes nothing: the job is no longer running.
    await runExportChunk(w.deps, first, { redelivered: true, last: false });
    expect(job(w, id)).toMatchObject({ status: 'failed', version: 1, files: [] });
  });

  it('an object write that fails records nothing and sends nothing; the retry writes the chunk', async () => {
    const { w, id, first } = await sessionsJob(10);
    w.objects.putFailures = 1;
    await expect(runExportChunk(w.deps, first, { redelivered: false, last: false })).rejects.toThrow('object write failed');
    expect(job(w, id)).toMatchObject({ version: 0, files: [], status: 'running' });
    expect(w.queue.sent).toHaveLength(1);
    await runExportChunk(w.deps, first, { redelivered: true, last: false });
    const done = job(w, id);
    expect(done).toMatchObject({ status: 'completed', version: 1 });
    expect(done.files).toEqual([expect.objectContaining({ chunk: 0, rows: 10 })]);
    // The only chunk was the last: no successor.
    expect(w.queue.sent).toHaveLength(1);
  });

  it('a crash after the job write and before the next send: the redelivery sends the next message again, a duplicate sends nothing', async () => {
    const { w, id, first } = await sessionsJob(7_000);
    w.queue.sendFailures = 1;
    await expect(runExportChunk(w.deps, first, { redelivered: false, last: false })).rejects.toThrow('before the next send');
    const recorded = job(w, id);
    expect(progressOf(recorded, 'sessions')).toMatchObject({ chunk: 1, done: false });
    expect(recorded.files).toHaveLength(1);
    expect(w.queue.sent).toHaveLength(1);
    const putsBefore = w.objects.puts.length;

    // A duplicate delivered for the first time (not a redelivery) leaves it alone.
    await runExportChunk(w.deps, first, { redelivered: false, last: false });
    expect(w.queue.take()).toEqual([]);
    // The redelivery of the crashed message sends what the crash lost, and writes nothing.
    await runExportChunk(w.deps, first, { redelivered: true, last: false });
    expect(w.queue.take()).toEqual([{ jobId: id, list: 'sessions', chunk: 1 }]);
    expect(w.objects.puts).toHaveLength(putsBefore);
    expect(job(w, id).version).toBe(recorded.version);

    await runExportChunk(w.deps, { jobId: id, list: 'sessions', chunk: 1 }, { redelivered: false, last: false });
    const done = job(w, id);
    expect(done.status).toBe('completed');
    expect(done.files.map((f) => f.rows)).toEqual([5_000, 2_000]);
    // Once the list (and the job) is done, a redelivery sends nothing.
    await runExportChunk(w.deps, first, { redelivered: true, last: false });
    await runExportChunk(w.deps, { jobId: id, list: 'sessions', chunk: 1 }, { redelivered: true, last: false });
    expect(w.queue.take()).toEqual([]);
  });

  it('a redelivery after the list is done, while another list still runs, sends nothing for it', async () => {
    const w = world();
    addSession(w, START_US - DELAY_MS * 1000 - 1);
    const created = await create(w, { lists: ['apps', 'sessions'] });
    const [apps] = w.queue.take();
    await runExportChunk(w.deps, apps!, { redelivered: false, last: false });
    expect(progressOf(job(w, created.id), 'apps').done).toBe(true);
    await runExportChunk(w.deps, apps!, { redelivered: true, last: false });
    expect(w.queue.take()).toEqual([]);
    expect(w.objects.puts).toHaveLength(1);
  });

  it('ignores messages of an unknown job, of a list the job does not hold, and of a job no longer running', async () => {
    const w = world();
    addSession(w, START_US - DELAY_MS * 1000 - 1);
    await runExportChunk(w.deps, { jobId: randomUUID(), list: 'sessions', chunk: 0 }, { redelivered: true, last: false });
    const created = await create(w, { lists: ['sessions'] });
    w.queue.take();
    await runExportChunk(w.deps, { jobId: created.id, list: 'usage', chunk: 0 }, { redelivered: true, last: false });
    // A message ahead of the job's chunk (cannot be sent by the product) is no work either.
    await runExportChunk(w.deps, { jobId: created.id, list: 'sessions', chunk: 3 }, { redelivered: true, last: false });
    expect(w.objects.puts).toEqual([]);
    expect(w.queue.sent).toHaveLength(1);
    expect(job(w, created.id).version).toBe(0);
  });

  it('two lists racing on the version both land: the loser applies its chunk again on the job as it is now', async () => {
    const w = world();
    const watermark = START_US - DELAY_MS * 1000;
    manySessions(w, 6_000, watermark - 1_000);
    addUsage(w, watermark - 1, 1);
    const created = await create(w, { lists: ['sessions', 'usage'] });
    const [sessions, usage] = w.queue.take();
    // The usage worker writes the job between the sessions worker's read and its write.
    w.jobs.beforeNextReplace = () => runExportChunk(w.deps, usage!, { redelivered: false, last: false });
    await runExportChunk(w.deps, sessions!, { redelivered: false, last: false });
    expect(w.jobs.conflicts).toBe(1);
    const j = job(w, created.id);
    expect(j.version).toBe(2);
    expect(progressOf(j, 'usage')).toMatchObject({ chunk: 1, done: true });
    expect(progressOf(j, 'sessions')).toMatchObject({ chunk: 1, done: false });
    expect(j.files.map((f) => [f.list, f.chunk, f.rows])).toEqual([
      ['usage', 0, 1],
      ['sessions', 0, CHUNK_ROWS],
    ]);
    // Each list's next message once: none for usage (done), chunk 1 for sessions.
    expect(w.queue.take()).toEqual([{ jobId: created.id, list: 'sessions', chunk: 1 }]);
    // One put each (the sessions object before its job write): the loser did not write its object again.
    expect(w.objects.puts.map((p) => p.key)).toEqual([j.files.find((f) => f.list === 'sessions')!.key, j.files.find((f) => f.list === 'usage')!.key]);

    w.queue.pending.push({ jobId: created.id, list: 'sessions', chunk: 1 });
    await drain(w);
    expect(job(w, created.id).status).toBe('completed');
  });

  it('lists run at once (every message in flight together) all land, whatever the interleaving', async () => {
    const w = world();
    const watermark = START_US - DELAY_MS * 1000;
    manySessions(w, 300, watermark - 1_000);
    for (let i = 1; i <= 40; i++) addUsage(w, watermark - i, i);
    for (let i = 1; i <= 5; i++) addTombstone(w, watermark - i);
    const created = await create(w);
    for (let round = 0; round < 10 && w.queue.pending.length; round++) {
      await Promise.all(w.queue.take().map((m) => runExportChunk(w.deps, m, { redelivered: false, last: false })));
    }
    const done = job(w, created.id);
    expect(done.status).toBe('completed');
    expect(done.files.map((f) => [f.list, f.rows]).sort()).toEqual([
      ['apps', 2],
      ['sessions', 300],
      ['tombstones', 5],
      ['usage', 40],
    ]);
    expect(done.version).toBe(4);
  });

  it('a duplicate of a chunk running at the same time leaves the recorded rows and bytes those of the object', async () => {
    // SQS may hand one message to two workers; a stall restart or a redelivery can also send a chunk
    // that is in flight. Both workers write the same key; the one that loses the job write must not
    // leave an object that differs from what the job records (rows, bytes), as a removal between the
    // two reads makes them differ.
    const w = world();
    const watermark = START_US - DELAY_MS * 1000;
    const all = manySessions(w, 10, watermark - 1_000);
    const created = await create(w, { lists: ['sessions'] });
    const [message] = w.queue.take();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let pages = 0;
    // The second worker's first page waits until the first worker is done and a session is removed.
    w.onSessionsPage = async () => {
      if (pages++ === 0) await gate;
    };
    const late = runExportChunk(w.deps, message!, { redelivered: false, last: false });
    await vi.waitFor(() => expect(pages).toBe(1));
    await runExportChunk(w.deps, message!, { redelivered: false, last: false });
    const recorded = job(w, created.id).files[0]!;
    expect(recorded.rows).toBe(10);
    // A session is removed after the watermark (its tombstone is above it): it leaves the index.
    w.sessions.splice(w.sessions.indexOf(all[0]!), 1);
    w.live.delete(all[0]!.id);
    release();
    await late;

    const final = job(w, created.id).files[0]!;
    expect(final).toEqual(recorded);
    expect(w.objects.lines(final.key)).toHaveLength(final.rows);
    expect(w.objects.objects.get(final.key)!.byteLength).toBe(final.bytes);
  });
});

describe('getExportJob', () => {
  it('restarts a running job untouched longer than STALLED_AFTER_US once: the next chunk of each unfinished list', async () => {
    const w = world();
    const watermark = START_US - DELAY_MS * 1000;
    manySessions(w, 6_000, watermark - 1_000);
    addUsage(w, watermark - 1, 1);
    const created = await create(w);
    const first = w.queue.take();
    // apps and tombstones finish; sessions writes chunk 0 and its chunk 1 message is lost; usage's first message is lost.
    for (const m of first.filter((x) => x.list === 'apps' || x.list === 'tombstones' || x.list === 'sessions'))
      await runExportChunk(w.deps, m, { redelivered: false, last: false });
    expect(w.queue.take()).toEqual([{ jobId: created.id, list: 'sessions', chunk: 1 }]);
    const stalled = job(w, created.id);
    expect(stalled.status).toBe('running');

    // Exactly STALLED_AFTER_US is not stalled yet.
    w.now = stalled.updatedAtUs + STALLED_AFTER_US;
    let view = await getExportJob(w.deps, { orgId: ORG, jobId: created.id, scopes: ALL_SCOPES });
    expect(view.job.version).toBe(stalled.version);
    expect(w.queue.take()).toEqual([]);
    expect(view.urls).toEqual([]);

    w.advance(1);
    view = await getExportJob(w.deps, { orgId: ORG, jobId: created.id, scopes: ALL_SCOPES });
    expect(view.job).toMatchObject({ status: 'running', updatedAtUs: w.now, version: stalled.version + 1 });
    expect(job(w, created.id).version).toBe(stalled.version + 1);
    expect(w.queue.take()).toEqual([
      { jobId: created.id, list: 'sessions', chunk: 1 },
      { jobId: created.id, list: 'usage', chunk: 0 },
    ]);
    // A second poll right after sends nothing.
    w.advance(1_000_000);
    await getExportJob(w.deps, { orgId: ORG, jobId: created.id, scopes: ALL_SCOPES });
    expect(w.queue.take()).toEqual([]);

    await runExportChunk(w.deps, { jobId: created.id, list: 'sessions', chunk: 1 }, { redelivered: false, last: false });
    await runExportChunk(w.deps, { jobId: created.id, list: 'usage', chunk: 0 }, { redelivered: false, last: false });
    const done = job(w, created.id);
    expect(done.status).toBe('completed');

    // A completed job: one URL per file, in the files' order, valid for an hour; never restarted.
    w.advance(STALLED_AFTER_US * 10);
    view = await getExportJob(w.deps, { orgId: ORG, jobId: created.id, scopes: ALL_SCOPES });
    expect(w.queue.take()).toEqual([]);
    expect(view.job.version).toBe(done.version);
    expect(done.files).toHaveLength(5);
    expect(view.urls).toEqual(done.files.map((f) => `https://objects.test/${f.key}?expires=${DOWNLOAD_URL_SECONDS}`));
    expect(view.urlsExpireAtUs).toBe(w.now + DOWNLOAD_URL_SECONDS * 1_000_000);
  });

  it('a restart that loses to a worker write sends nothing and returns the job as written', async () => {
    const w = world();
    manySessions(w, 6_000, START_US - DELAY_MS * 1000 - 1_000);
    const created = await create(w, { lists: ['sessions'] });
    const [first] = w.queue.take();
    w.advance(STALLED_AFTER_US + 1);
    // The worker's write lands between the poll's read and its write.
    w.jobs.beforeNextReplace = () => runExportChunk(w.deps, first!, { redelivered: false, last: false });
    const view = await getExportJob(w.deps, { orgId: ORG, jobId: created.id, scopes: ALL_SCOPES });
    expect(view.job.version).toBe(1);
    expect(progressOf(view.job, 'sessions').chunk).toBe(1);
    expect(w.queue.take()).toEqual([{ jobId: created.id, list: 'sessions', chunk: 1 }]);
  });

  it('answers 404 for another org or an unknown id and 403 for a key lacking a list scope', async () => {
    const w = world();
    const created = await create(w, { lists: ['sessions', 'usage'] });
    const err = (e: unknown) => (e instanceof DomainError ? { code: e.code, message: e.message } : e);
    await expect(getExportJob(w.deps, { orgId: OTHER_ORG, jobId: created.id, scopes: ALL_SCOPES }).catch(err)).resolves.toEqual({
      code: 'not_found',
      message: 'Export not found',
    });
    await expect(getExportJob(w.deps, { orgId: ORG, jobId: randomUUID(), scopes: ALL_SCOPES }).catch(err)).resolves.toMatchObject({ code: 'not_found' });
    // A key of another org is a 404 even with no scopes at all (existence is not revealed by a 403).
    await expect(getExportJob(w.deps, { orgId: OTHER_ORG, jobId: created.id, scopes: [] }).catch(err)).resolves.toMatchObject({ code: 'not_found' });
    await expect(getExportJob(w.deps, { orgId: ORG, jobId: created.id, scopes: ['transcripts:read'] }).catch(err)).resolves.toEqual({
      code: 'forbidden',
      message: 'API key lacks the required scope: usage:read',
    });
    await expect(getExportJob(w.deps, { orgId: ORG, jobId: created.id, scopes: ['usage:read', 'apps:read'] }).catch(err)).resolves.toEqual({
      code: 'forbidden',
      message: 'API key lacks the required scope: transcripts:read',
    });
    const view = await getExportJob(w.deps, { orgId: ORG, jobId: created.id, scopes: ['transcripts:read', 'usage:read'] });
    expect(view.job.id).toBe(created.id);
    // A 403 or 404 never restarts anything.
    expect(w.queue.sent).toHaveLength(2);
  });
});

describe('requestedLists', () => {
  const code = (fn: () => unknown) => {
    const e = rejection(fn);
    return { code: e.code, message: e.message };
  };

  it('defaults to every list the scopes allow, in the lists order', () => {
    expect(requestedLists({}, ALL_SCOPES)).toEqual(['apps', 'sessions', 'usage', 'tombstones']);
    expect(requestedLists({}, ['tombstones:read', 'usage:read'])).toEqual(['usage', 'tombstones']);
    expect(requestedLists({}, ['transcripts:read'])).toEqual(['sessions']);
    expect(code(() => requestedLists({}, []))).toEqual({
      code: 'forbidden',
      message: 'API key lacks every scope an export needs: apps:read, transcripts:read, usage:read, tombstones:read',
    });
  });

  it('takes named lists within the scopes, in the lists order', () => {
    expect(requestedLists({ lists: ['tombstones', 'apps'] }, ALL_SCOPES)).toEqual(['apps', 'tombstones']);
    expect(requestedLists({ lists: ['usage'] }, ['usage:read'])).toEqual(['usage']);
  });

  it('is a 403 for a named list outside the scopes', () => {
    expect(code(() => requestedLists({ lists: ['usage', 'sessions'] }, ['usage:read']))).toEqual({
      code: 'forbidden',
      message: 'API key lacks the required scope: transcripts:read',
    });
    expect(code(() => requestedLists({ lists: ['apps'] }, ['usage:read', 'transcripts:read', 'tombstones:read']))).toMatchObject({ code: 'forbidden' });
  });

  it('is a 400 for unknown, repeated, empty or malformed lists and for extra fields', () => {
    const listsMessage = 'lists must be a non-empty array of apps, sessions, usage, tombstones';
    for (const lists of [['messages'], ['sessions', 'Sessions'], [], 'sessions', null, [1], [['apps']], {}]) {
      expect(
        code(() => requestedLists({ lists }, ALL_SCOPES)),
        JSON.stringify(lists),
      ).toEqual({ code: 'bad_request', message: listsMessage });
    }
    expect(code(() => requestedLists({ lists: ['apps', 'usage', 'apps'] }, ALL_SCOPES))).toEqual({ code: 'bad_request', message: 'lists names a list twice' });
    expect(code(() => requestedLists({ lists: ['apps'], format: 'csv' }, ALL_SCOPES))).toEqual({ code: 'bad_request', message: 'Unsupported field: format' });
    expect(code(() => requestedLists({ format: 'csv', since: 1 }, ALL_SCOPES))).toEqual({ code: 'bad_request', message: 'Unsupported fields: format, since' });
    // A bad request is a 400 before the scopes are looked at.
    expect(code(() => requestedLists({ lists: ['apps'], extra: true }, []))).toMatchObject({ code: 'bad_request' });
    expect(code(() => requestedLists({ lists: ['apps', 'apps'] }, []))).toMatchObject({ code: 'bad_request' });
  });

  it('a refused create writes no job and sends no message', async () => {
    const w = world();
    await expect(create(w, { lists: ['sessions'] }, ['usage:read'])).rejects.toMatchObject({ code: 'forbidden' });
    await expect(create(w, { lists: ['nope'] })).rejects.toMatchObject({ code: 'bad_request' });
    expect(w.jobs.jobs.size).toBe(0);
    expect(w.queue.sent).toEqual([]);
  });
});

describe('chunks cut by bytes', () => {
  it('ends a chunk at the first page boundary at or past CHUNK_BYTES and continues right after it', async () => {
    // CHUNK_BYTES lowered for this test only: a chunk of 64 MB is too much for a unit test.
    vi.resetModules();
    vi.doMock('../../functions/export/domain/export-job', async (importOriginal) => ({
      ...(await importOriginal<typeof import('../../functions/export/domain/export-job')>()),
      CHUNK_BYTES: 30_000,
    }));
    try {
      const mod = await import('../../functions/export/app/export-jobs');
      const w = world();
      const all = manySessions(w, 450, START_US - DELAY_MS * 1000 - 1_000);
      const created = await mod.createExportJob(w.deps, { orgId: ORG, scopes: ALL_SCOPES, body: { lists: ['sessions'] } });
      while (w.queue.pending.length) await mod.runExportChunk(w.deps, w.queue.pending.shift()!, { redelivered: false, last: false });
      const done = job(w, created.id);
      expect(done.status).toBe('completed');
      const lineBytes = Buffer.byteLength(sessionLine(w, all[0]!)) + 1;
      // Each page of 100 adds ~100 lines; the chunk ends at the first page whose end reaches the byte cap.
      const pagesPerChunk = Math.ceil(30_000 / (100 * lineBytes));
      const rows = done.files.map((f) => f.rows);
      expect(rows.slice(0, -1).every((r) => r === pagesPerChunk * 100)).toBe(true);
      expect(rows.reduce((a, b) => a + b, 0)).toBe(450);
      expect(rows.length).toBeGreaterThan(1);
      // The cap is checked once a page, so a chunk may hold up to a page (100 rows) more than CHUNK_BYTES.
      expect(rows[0]! * lineBytes).toBeGreaterThanOrEqual(30_000);
      const sorted = [...all].sort((a, b) => byPositionDesc(sessionPosition(a), sessionPosition(b)));
      expect(linesOf(w, done, 'sessions')).toEqual(sorted.map((s) => sessionLine(w, s)));
    } finally {
      vi.doUnmock('../../functions/export/domain/export-job');
      vi.resetModules();
    }
  });
});
