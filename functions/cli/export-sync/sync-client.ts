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
 * Every pass works on staged changes and commits them with its checkpoint in one save.
 */
import { DEFAULT_RETRY_POLICY, ExportApi, ExportApiError, type HttpTransport, type RetryPolicy } from './export-api';
import type { ExportedApp, ExportedSession, ExportedUsageRow, LocalCopy, LocalStore, StoredSession, Tombstone } from './local-store';
import { fetchTranscript, pages } from './export-reader';
import { applyTombstone } from './tombstone-rules';
import { loadSnapshot, type SnapshotSummary } from './snapshot-load';

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

async function pullApps(api: ExportApi, copy: LocalCopy, store: LocalStore, progress: Progress): Promise<SyncSummary['apps']> {
  const path = '/api/v1/org/apps';
  progress('apps', 0);
  let body: unknown;
  try {
    body = await api.get(path);
  } catch (err) {
    if (err instanceof ExportApiError && err.status === 403) {
      progress('apps', 0, true);
      return { seen: 0, upserted: 0, removed: 0, skipped: 'the key lacks the apps:read scope (HTTP 403)' };
    }
    throw err;
  }
  const b = body as { data?: unknown } | null;
  if (!b || !Array.isArray(b.data)) throw new ExportApiError(200, path, body, `GET ${path}: unexpected response shape`);
  const listed = new Map<string, ExportedApp>();
  for (const row of b.data as ExportedApp[]) listed.set(row.id, row);
  progress('apps', listed.size, true);
  let upserted = 0;
  let removed = 0;
  for (const [id, row] of listed) {
    const prev = copy.apps.get(id);
    if (prev && JSON.stringify(prev) === JSON.stringify(row)) continue;
    copy.apps.set(id, row);
    upserted++;
  }
  // Deleted apps leave the list (their sessions leave through tombstones): the copy follows the list.
  for (const id of [...copy.apps.keys()]) {
    if (listed.has(id)) continue;
    copy.apps.delete(id);
    removed++;
  }
  if (upserted > 0 || removed > 0) await store.save(copy, { apps: true });
  return { seen: listed.size, upserted, removed, skipped: null };
}

/** A session row of `include=messages`: the list form plus its transcript (null: too large for a page, read it apart). */
type InlineRow = ExportedSession & { readonly messages?: unknown[] | null; readonly zdr?: boolean };

async function pullSessions(
  api: ExportApi,
  copy: LocalCopy,
  store: LocalStore,
  opts: { limit: string; inline: boolean },
  progress: Progress,
): Promise<SyncSummary['sessions']> {
  const { limit, inline } = opts;
  const out = { pages: 0, seen: 0, upserted: 0, transcripts: 0, gone: 0, skipped_tombstoned: 0, checkpoint: copy.state.sessionsCheckpoint };
  // A session stays listed until the removal step of its deletion commits, which is after its tombstone
  // was written (tombstone first) and possibly after this client applied that tombstone. Without this
  // set, such a late listing would upsert the deleted session again and it would never leave the copy.
  const tombstoned = new Set(copy.state.tombstonedSessionIds);
  const staged = new Map<string, StoredSession | null>();
  let maxSeen = copy.state.sessionsCheckpoint;
  let messages = 0;
  progress('sessions', 0);
  progress('messages', 0);
  const query = { limit, updated_after: copy.state.sessionsCheckpoint ?? undefined, ...(inline ? { include: 'messages,tool_details' } : {}) };
  out.pages = await pages<InlineRow>(api, '/api/v1/org/sessions', query, async (listed) => {
    for (const listedRow of listed) {
      const { messages: inlineMessages, zdr: inlineZdr, ...row } = listedRow;
      out.seen++;
      maxSeen = laterOf(maxSeen, row.last_activity_at);
      if (tombstoned.has(row.id)) {
        out.skipped_tombstoned++;
        continue;
      }
      if (inline && Array.isArray(inlineMessages)) {
        // The transcript came with the row: the whole of it, so the upsert replaces what the copy had.
        out.upserted++;
        staged.set(row.id, { session: row, messages: inlineMessages, zdr: inlineZdr === true });
        messages += inlineMessages.length;
        progress('messages', messages);
        continue;
      }
      const prev = staged.has(row.id) ? staged.get(row.id) : copy.sessions.get(row.id);
      if (prev && prev.session.last_activity_at === row.last_activity_at) {
        // Same watermark: nothing persisted changed since the transcript was fetched.
        out.upserted++;
        staged.set(row.id, { ...prev, session: row });
        continue;
      }
      const transcript = await fetchTranscript(api, row.id);
      out.transcripts++;
      if (transcript === null) {
        // Deleted between the listing and the fetch: drop it; its tombstone follows.
        out.gone++;
        staged.set(row.id, null);
        continue;
      }
      out.upserted++;
      staged.set(row.id, { session: row, messages: transcript.messages, zdr: transcript.zdr });
      messages += transcript.messages.length;
      progress('messages', messages);
    }
    progress('sessions', out.seen);
  });
  progress('sessions', out.seen, true);
  progress('messages', messages, true);
  // The pass ended with has_more false; only now do its rows and its checkpoint land.
  for (const [id, s] of staged) {
    if (s === null) copy.sessions.delete(id);
    else copy.sessions.set(id, s);
  }
  const moved = maxSeen !== copy.state.sessionsCheckpoint;
  copy.state.sessionsCheckpoint = maxSeen;
  if (staged.size > 0 || moved) await store.save(copy, { sessions: true });
  return { ...out, checkpoint: maxSeen };
}

async function pullTombstones(api: ExportApi, copy: LocalCopy, store: LocalStore, limit: string, progress: Progress): Promise<SyncSummary['tombstones']> {
  const out = { pages: 0, new: 0, sessions_deleted: 0, consumers_erased: 0, conservative: 0 };
  const ingested = new Set(copy.state.ingestedTombstoneIds);
  const fresh = new Map<string, Tombstone>();
  let read = 0;
  progress('tombstones', 0);
  out.pages = await pages<Tombstone>(api, '/api/v1/org/tombstones', { limit }, async (rows) => {
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
  const tombstoned = new Set(copy.state.tombstonedSessionIds);
  const erased = new Set(copy.state.erasedConsumerIds);
  for (const t of fresh.values()) {
    const r = applyTombstone(copy, t, tombstoned, erased);
    out.new++;
    out.sessions_deleted += r.sessionsDeleted;
    if (r.consumerErased) out.consumers_erased++;
    if (r.conservative) out.conservative++;
    copy.tombstones.set(t.id, t);
  }
  copy.state.ingestedTombstoneIds = [...copy.state.ingestedTombstoneIds, ...fresh.keys()];
  copy.state.tombstonedSessionIds = [...tombstoned];
  copy.state.erasedConsumerIds = [...erased];
  if (fresh.size > 0) await store.save(copy, { sessions: true, tombstones: true });
  return out;
}

async function pullUsage(api: ExportApi, copy: LocalCopy, store: LocalStore, limit: string, progress: Progress): Promise<SyncSummary['usage']> {
  const out = { pages: 0, seen: 0, upserted: 0 };
  const staged = new Map<string, ExportedUsageRow>();
  let maxSeen = copy.state.usageCheckpoint;
  progress('usage', 0);
  out.pages = await pages<ExportedUsageRow>(api, '/api/v1/org/usage', { limit, since: copy.state.usageCheckpoint ?? undefined }, async (rows) => {
    for (const row of rows) {
      out.seen++;
      maxSeen = laterOf(maxSeen, row.created_at);
      // A usage row whose write committed late is re-stamped under the same id: the upsert moves it.
      staged.set(String(row.id), row);
    }
    progress('usage', out.seen);
  });
  progress('usage', out.seen, true);
  for (const [id, row] of staged) copy.usage.set(id, row);
  out.upserted = staged.size;
  const moved = maxSeen !== copy.state.usageCheckpoint;
  copy.state.usageCheckpoint = maxSeen;
  if (staged.size > 0 || moved) await store.save(copy, { usage: true });
  return { ...out, checkpoint: maxSeen };
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
  let copy = await deps.store.load();
  const empty = copy.state.sessionsCheckpoint === null && copy.state.usageCheckpoint === null && copy.sessions.size === 0 && copy.usage.size === 0;
  let snapshot: SnapshotSummary | null = null;
  const wantsSnapshot = deps.full === true || (empty && (deps.firstLoad ?? 'snapshot') === 'snapshot');
  if (wantsSnapshot && deps.transport.post && deps.transport.download) {
    const loaded = await loadSnapshot(api, {
      sleep: deps.sleep ?? realSleep,
      pollMs: deps.pollMs ?? 2000,
      progress: (list, rows, done) => progress(list as ListName, rows, done),
    });
    if (loaded) {
      copy = loaded.copy;
      snapshot = loaded.summary;
      await deps.store.save(copy, { apps: true, sessions: true, usage: true, tombstones: true });
    }
  }
  const apps = await pullApps(api, copy, deps.store, progress);
  const sessions = await pullSessions(api, copy, deps.store, { limit, inline: (deps.transcripts ?? 'inline') === 'inline' }, progress);
  const tombstones = await pullTombstones(api, copy, deps.store, limit, progress);
  const usage = await pullUsage(api, copy, deps.store, limit, progress);
  let messages = 0;
  for (const s of copy.sessions.values()) messages += s.messages.length;
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
    copy: { apps: copy.apps.size, sessions: copy.sessions.size, messages, usage: copy.usage.size, tombstones: copy.tombstones.size },
  };
}
