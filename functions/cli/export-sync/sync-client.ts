/**
 * The reference Org Export sync client: the starting point of a customer's warehouse pull. One run
 * (`syncOnce`) is four passes, each following the spec's sync rules (area A):
 *
 * 0. Apps: `GET /apps` lists every non-deleted app in one response; the copy's apps are replaced by it.
 *    A key without the apps:read scope (403) skips this pass and says so in the summary.
 * 1. Sessions: a fresh pass (no cursor) with `updated_after` = the persisted checkpoint, following
 *    `next_cursor` while `has_more`; rows are upserted by id (duplicates across runs are expected) with
 *    the transcript each row carries (`include=messages`). A row whose transcript was too large for a
 *    page, and every new or changed session in `per-session` mode, gets it from `/sessions/{id}/messages`. The new
 *    checkpoint is the maximum `last_activity_at` seen (never `started_at`), persisted only when the pass
 *    ended with `has_more` false. A pass that fails persists nothing, not even its upserts.
 * 2. Tombstones, applied after the sessions pull of the same run: the newest page without a cursor,
 *    then `next_cursor` until `has_more` is false or an already-ingested tombstone id turns up.
 * 3. Usage: the sessions pattern with `since` and the maximum `created_at`, upserted by id.
 *
 * Every pass works row by row in one pass of the store (`CopyPass`) and commits its rows with its
 * checkpoint; the client itself never holds the copy, so its memory does not grow with the org.
 */
import { DEFAULT_RETRY_POLICY, ExportApi, ExportApiError, type HttpTransport, type RetryPolicy } from './export-api';
import type { CopyPass, ExportedApp, ExportedSession, ExportedUsageRow, HeldSession, LocalStore, SessionPut, Tombstone } from './local-store';
import { fetchTranscript, pages } from './export-reader';
import { applyTombstone } from './tombstone-rules';
import { awaitSnapshot, type SnapshotSummary, writeSnapshot } from './snapshot-load';

export type { Tombstone } from './local-store';

/** The lists a run reads; `messages` are the transcripts fetched during the sessions pass. */
export type ListName = 'apps' | 'sessions' | 'messages' | 'tombstones' | 'usage' | `snapshot ${string}`;

/** Rows read so far from one list in this run; `done` once the list has been read to its end. */
export interface ProgressEvent {
  readonly list: ListName;
  readonly rows: number;
  readonly done: boolean;
}

export interface SyncDeps {
  readonly transport: HttpTransport;
  readonly store: LocalStore;
  /** How the client waits (Retry-After, backoff); real time by default. */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly retry?: RetryPolicy;
  /** Page size of the list calls: 1 to 100 (the API's maximum), default 100. */
  readonly pageSize?: number;
  /** Told when a list starts (rows 0), after every page or transcript, and when the list is done. */
  readonly onProgress?: (event: ProgressEvent) => void;
  /**
   * How transcripts are read: `inline` (the default) takes them with the session rows
   * (`include=messages,tool_details`), one request per page; `per-session` reads
   * `/sessions/{id}/messages` for each new or changed session, as the spec's sync loop does.
   */
  readonly transcripts?: 'inline' | 'per-session';
  /**
   * The first load of an empty copy: `snapshot` (the default) takes a bulk snapshot export and
   * continues incrementally from its watermark; `pages` pages through the lists. A server without
   * snapshot exports is paged through either way.
   */
  readonly firstLoad?: 'snapshot' | 'pages';
  /** Load a fresh snapshot although the copy has data: it replaces the copy. */
  readonly full?: boolean;
  /** How often a running snapshot export is polled; 2 s by default. */
  readonly pollMs?: number;
}

type Progress = (list: ListName, rows: number, done?: boolean) => void;

export interface SyncSummary {
  readonly ok: true;
  readonly started_at: string;
  readonly duration_ms: number;
  /** The snapshot export this run loaded first, or null when it paged (a copy with data, or no snapshot). */
  readonly snapshot: SnapshotSummary | null;
  /** `skipped` names why the apps pass did not run (a key without apps:read), else null. */
  readonly apps: { seen: number; upserted: number; removed: number; skipped: string | null };
  readonly sessions: {
    pages: number;
    seen: number;
    upserted: number;
    transcripts: number;
    gone: number;
    skipped_tombstoned: number;
    checkpoint: string | null;
  };
  readonly tombstones: { pages: number; new: number; sessions_deleted: number; consumers_erased: number; conservative: number };
  readonly usage: { pages: number; seen: number; upserted: number; checkpoint: string | null };
  readonly requests: { total: number; retries: number; rate_limited: number; downloads: number };
  readonly copy: { apps: number; sessions: number; messages: number; usage: number; tombstones: number };
}

/** Later of two ISO timestamps (null is "none yet"). */
export function laterOf(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  if (Number.isNaN(ta) || Number.isNaN(tb)) return a >= b ? a : b;
  return tb > ta ? b : a;
}

/**
 * Runs `work` in one pass of the store: committed when it answers `changed`, rolled back otherwise and
 * when it throws (a pass that fails persists nothing, not even its upserts).
 */
async function inPass<T>(store: LocalStore, work: (pass: CopyPass) => Promise<{ result: T; changed: boolean }>): Promise<T> {
  const pass = await store.begin();
  let out: { result: T; changed: boolean };
  try {
    out = await work(pass);
  } catch (err) {
    await pass.rollback();
    throw err;
  }
  if (out.changed) await pass.commit();
  else await pass.rollback();
  return out.result;
}

async function pullApps(api: ExportApi, pass: CopyPass, progress: Progress): Promise<{ result: SyncSummary['apps']; changed: boolean }> {
  const path = '/api/v1/org/apps';
  progress('apps', 0);
  let body: unknown;
  try {
    body = await api.get(path);
  } catch (err) {
    if (err instanceof ExportApiError && err.status === 403) {
      progress('apps', 0, true);
      return { result: { seen: 0, upserted: 0, removed: 0, skipped: 'the key lacks the apps:read scope (HTTP 403)' }, changed: false };
    }
    throw err;
  }
  const b = body as { data?: unknown } | null;
  if (!b || !Array.isArray(b.data)) throw new ExportApiError(200, path, body, `GET ${path}: unexpected response shape`);
  const listed = new Map<string, ExportedApp>();
  for (const row of b.data as ExportedApp[]) listed.set(row.id, row);
  progress('apps', listed.size, true);
  const held = await pass.apps();
  const changed = [...listed.values()].filter((row) => JSON.stringify(held.get(row.id)) !== JSON.stringify(row));
  // Deleted apps leave the list (their sessions leave through tombstones): the copy follows the list.
  const removed = [...held.keys()].filter((id) => !listed.has(id));
  await pass.putApps(changed);
  await pass.deleteApps(removed);
  return { result: { seen: listed.size, upserted: changed.length, removed: removed.length, skipped: null }, changed: changed.length > 0 || removed.length > 0 };
}

/** A session row of `include=messages`: the list form plus its transcript (null: too large for a page, read it apart). */
type InlineRow = ExportedSession & { readonly messages?: unknown[] | null; readonly zdr?: boolean };

async function pullSessions(
  api: ExportApi,
  pass: CopyPass,
  opts: { limit: string; inline: boolean },
  progress: Progress,
): Promise<{ result: SyncSummary['sessions']; changed: boolean }> {
  const { limit, inline } = opts;
  const checkpoint = (await pass.checkpoints()).sessions;
  const out = { pages: 0, seen: 0, upserted: 0, transcripts: 0, gone: 0, skipped_tombstoned: 0, checkpoint };
  let maxSeen = checkpoint;
  let messages = 0;
  let wrote = false;
  progress('sessions', 0);
  progress('messages', 0);
  const query = { limit, updated_after: checkpoint ?? undefined, ...(inline ? { include: 'messages,tool_details' } : {}) };
  out.pages = await pages<InlineRow>(api, '/api/v1/org/sessions', query, async (listed) => {
    const rows = listed.map(({ messages: inlineMessages, zdr, ...row }) => ({ row: row as ExportedSession, inlineMessages, zdr }));
    // A session stays listed until the removal step of its deletion commits, which is after its tombstone
    // was written (tombstone first) and possibly after this client applied that tombstone. Without this
    // check, such a late listing would upsert the deleted session again and it would never leave the copy.
    const tombstoned = await pass.tombstonedOf(rows.map((r) => r.row.id));
    const withTranscript = (r: (typeof rows)[number]) => inline && Array.isArray(r.inlineMessages);
    const needed = rows.filter((r) => !tombstoned.has(r.row.id) && !withTranscript(r)).map((r) => r.row.id);
    const held = needed.length > 0 ? await pass.heldSessions(needed) : new Map<string, HeldSession>();
    const puts: SessionPut[] = [];
    for (const r of rows) {
      const { row } = r;
      out.seen++;
      maxSeen = laterOf(maxSeen, row.last_activity_at);
      if (tombstoned.has(row.id)) {
        out.skipped_tombstoned++;
        continue;
      }
      if (withTranscript(r)) {
        // The transcript came with the row: the whole of it, so the upsert replaces what the copy had.
        out.upserted++;
        puts.push({ session: row, messages: r.inlineMessages!, zdr: r.zdr === true });
        messages += r.inlineMessages!.length;
        continue;
      }
      const prev = held.get(row.id);
      if (prev && prev.lastActivityAt === row.last_activity_at) {
        // Same watermark: nothing persisted changed since the transcript was fetched.
        out.upserted++;
        puts.push({ session: row, zdr: prev.zdr });
        continue;
      }
      const transcript = await fetchTranscript(api, row.id);
      out.transcripts++;
      if (transcript === null) {
        // Deleted between the listing and the fetch: drop it; its tombstone follows.
        out.gone++;
        await pass.putSessions(puts.splice(0));
        await pass.deleteSessions([row.id]);
        wrote = true;
        continue;
      }
      out.upserted++;
      puts.push({ session: row, messages: transcript.messages, zdr: transcript.zdr });
      messages += transcript.messages.length;
      progress('messages', messages);
    }
    await pass.putSessions(puts);
    if (puts.length > 0) wrote = true;
    progress('messages', messages);
    progress('sessions', out.seen);
  });
  progress('sessions', out.seen, true);
  progress('messages', messages, true);
  // The pass ended with has_more false; only now may its rows and its checkpoint land.
  const moved = maxSeen !== checkpoint;
  if (moved) await pass.setCheckpoint('sessions', maxSeen);
  return { result: { ...out, checkpoint: maxSeen }, changed: wrote || moved };
}

async function pullTombstones(
  api: ExportApi,
  pass: CopyPass,
  limit: string,
  progress: Progress,
): Promise<{ result: SyncSummary['tombstones']; changed: boolean }> {
  const out = { pages: 0, new: 0, sessions_deleted: 0, consumers_erased: 0, conservative: 0 };
  const fresh = new Map<string, Tombstone>();
  let read = 0;
  progress('tombstones', 0);
  out.pages = await pages<Tombstone>(api, '/api/v1/org/tombstones', { limit }, async (rows) => {
    const ingested = await pass.ingestedOf(rows.map((t) => t.id));
    let reachedIngested = false;
    for (const t of rows) {
      if (ingested.has(t.id)) reachedIngested = true;
      else fresh.set(t.id, t);
    }
    read += rows.length;
    progress('tombstones', read);
    return !reachedIngested;
  });
  progress('tombstones', read, true);
  for (const t of fresh.values()) {
    const r = await applyTombstone(pass, t);
    out.new++;
    out.sessions_deleted += r.sessionsDeleted;
    if (r.consumerErased) out.consumers_erased++;
    if (r.conservative) out.conservative++;
  }
  await pass.addTombstones([...fresh.values()]);
  return { result: out, changed: fresh.size > 0 };
}

async function pullUsage(api: ExportApi, pass: CopyPass, limit: string, progress: Progress): Promise<{ result: SyncSummary['usage']; changed: boolean }> {
  const checkpoint = (await pass.checkpoints()).usage;
  const out = { pages: 0, seen: 0, upserted: 0 };
  let maxSeen = checkpoint;
  progress('usage', 0);
  out.pages = await pages<ExportedUsageRow>(api, '/api/v1/org/usage', { limit, since: checkpoint ?? undefined }, async (rows) => {
    for (const row of rows) {
      out.seen++;
      maxSeen = laterOf(maxSeen, row.created_at);
    }
    // A usage row whose write committed late is re-stamped under the same id: the upsert moves it.
    await pass.putUsage(rows);
    out.upserted += new Set(rows.map((row) => String(row.id))).size;
    progress('usage', out.seen);
  });
  progress('usage', out.seen, true);
  const moved = maxSeen !== checkpoint;
  if (moved) await pass.setCheckpoint('usage', maxSeen);
  return { result: { ...out, checkpoint: maxSeen }, changed: out.upserted > 0 || moved };
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One sync run: apps, sessions, then tombstones, then usage. Throws (ExportApiError) when a pass fails. */
export async function syncOnce(deps: SyncDeps): Promise<SyncSummary> {
  const started = Date.now();
  const pageSize = deps.pageSize ?? 100;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) throw new Error(`pageSize must be an integer from 1 to 100, not ${pageSize}`);
  const limit = String(pageSize);
  const api = new ExportApi(deps.transport, deps.sleep ?? realSleep, deps.retry ?? DEFAULT_RETRY_POLICY);
  const onProgress = deps.onProgress;
  const progress: Progress = (list, rows, done = false) => onProgress?.({ list, rows, done });
  const store = deps.store;
  const empty = await inPass(store, async (pass) => ({ result: await pass.isEmpty(), changed: false }));
  let snapshot: SnapshotSummary | null = null;
  const wantsSnapshot = deps.full === true || (empty && (deps.firstLoad ?? 'snapshot') === 'snapshot');
  if (wantsSnapshot && deps.transport.post && deps.transport.download) {
    const job = await awaitSnapshot(api, { sleep: deps.sleep ?? realSleep, pollMs: deps.pollMs ?? 2000 });
    if (job) {
      // The snapshot replaces the copy in one pass: a failed download leaves the old copy as it was.
      snapshot = await inPass(store, async (pass) => ({
        result: await writeSnapshot(api, job, pass, (list, rows, done) => progress(list as ListName, rows, done)),
        changed: true,
      }));
    }
  }
  const apps = await inPass(store, (pass) => pullApps(api, pass, progress));
  const sessions = await inPass(store, (pass) => pullSessions(api, pass, { limit, inline: (deps.transcripts ?? 'inline') === 'inline' }, progress));
  const tombstones = await inPass(store, (pass) => pullTombstones(api, pass, limit, progress));
  const usage = await inPass(store, (pass) => pullUsage(api, pass, limit, progress));
  const copy = await inPass(store, async (pass) => ({ result: await pass.counts(), changed: false }));
  return {
    ok: true,
    started_at: new Date(started).toISOString(),
    duration_ms: Date.now() - started,
    snapshot,
    apps,
    sessions,
    tombstones,
    usage,
    requests: { total: api.stats.requests, retries: api.stats.retries, rate_limited: api.stats.rateLimited, downloads: api.stats.downloads },
    copy,
  };
}
