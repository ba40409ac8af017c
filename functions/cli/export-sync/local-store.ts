/**
 * The sync client's local copy: the rows as the export shows them, plus the checkpoints, behind one
 * port (`LocalStore`, whose passes the client works through row by row) with two adapters: this JSON
 * directory store (the default) and the DuckDB store (duckdb-store.ts). The client never holds the
 * copy; the JSON directory store does (it reads its files whole, which suits a small org), the DuckDB
 * store keeps it in its tables. The JSON directory store keeps its files under one directory, each
 * replaced atomically (temp file, fsync, rename) and only when a pass commits:
 *
 *   apps.json        { apps: { <id>: <app row> } }
 *   sessions.json    { sessions: { <id>: { session: <list row>, messages: [...], zdr } } }
 *   usage.json       { usage: { <id>: <usage row> } }
 *   tombstones.json  { tombstones: { <id>: <tombstone row> } }
 *   state.json       checkpoints, ingested tombstone ids, tombstoned session ids, erased consumer ids
 *
 * state.json is always written last: a crash between two files leaves data that is at least as new as
 * the checkpoints, so the next run re-pulls from the older checkpoint and converges (upserts and
 * deletions are idempotent). The reverse order could record a tombstone as ingested before its
 * deletion reached sessions.json, and the deleted session would stay in the copy for good.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** A session in the list form of the export; fields the client does not know are kept as they came. */
export interface ExportedSession {
  readonly id: string;
  readonly last_activity_at: string;
  readonly consumer_id?: string | null;
  readonly [field: string]: unknown;
}

/** An app as `GET /apps` lists it. */
export interface ExportedApp {
  readonly id: string;
  readonly [field: string]: unknown;
}

export interface ExportedUsageRow {
  readonly id: number | string;
  readonly created_at: string;
  readonly [field: string]: unknown;
}

/** A row of the deletion feed. */
export interface Tombstone {
  readonly id: string;
  readonly resource_type: string;
  readonly resource_id: string;
  readonly cause: string;
  readonly deleted_at: string;
  readonly [field: string]: unknown;
}

export interface StoredSession {
  readonly session: ExportedSession;
  /** The transcript as `/sessions/{id}/messages?include=tool_details` returned it. */
  readonly messages: readonly unknown[];
  readonly zdr: boolean;
}

export interface SyncState {
  /** Maximum `last_activity_at` of the last complete sessions pass: the next `updated_after`. */
  sessionsCheckpoint: string | null;
  /** Maximum `created_at` of the last complete usage pass: the next `since`. */
  usageCheckpoint: string | null;
  /** Tombstone ids already applied: the feed is read from the newest page down to the first of these. */
  ingestedTombstoneIds: string[];
  /** Sessions a tombstone deleted: a late listing of one of them is never upserted again. */
  tombstonedSessionIds: string[];
  /** Consumers a tombstone erased. */
  erasedConsumerIds: string[];
}

export interface LocalCopy {
  /** The org's apps as the last apps pass listed them (the list has no deletion feed: it is replaced). */
  readonly apps: Map<string, ExportedApp>;
  readonly sessions: Map<string, StoredSession>;
  readonly usage: Map<string, ExportedUsageRow>;
  /** The tombstones applied so far, by id. */
  readonly tombstones: Map<string, Tombstone>;
  state: SyncState;
}

/** A session to upsert: the list row and its zdr flag, with its whole transcript (which replaces the copy's) or, without one, keeping the copy's. */
export interface SessionPut {
  readonly session: ExportedSession;
  readonly zdr: boolean;
  readonly messages?: readonly unknown[];
}

/** What the copy holds of a session: enough to decide whether its transcript must be read again. */
export interface HeldSession {
  readonly lastActivityAt: string;
  readonly zdr: boolean;
}

export interface Checkpoints {
  readonly sessions: string | null;
  readonly usage: string | null;
}

export interface CopyCounts {
  readonly apps: number;
  readonly sessions: number;
  readonly messages: number;
  readonly usage: number;
  readonly tombstones: number;
}

/**
 * One pass over the copy, row by row: its reads see its own writes, and nothing of it lands until
 * `commit`, which writes the rows and the state (checkpoints, applied tombstones) together, so a crash
 * never leaves a checkpoint ahead of the data. `rollback` (or a process that dies) leaves the copy as
 * the last commit left it. The sync client never holds the whole copy: a store keeps it where it
 * likes (the DuckDB store in its tables, the JSON store in memory between its files).
 */
export interface CopyPass {
  checkpoints(): Promise<Checkpoints>;
  setCheckpoint(name: keyof Checkpoints, value: string | null): Promise<void>;
  /** True when nothing was ever synced: no checkpoint, no session, no usage row. */
  isEmpty(): Promise<boolean>;
  /** Removes every row and all state: a full snapshot replaces the copy. */
  clear(): Promise<void>;
  counts(): Promise<CopyCounts>;

  /** Every app (an org has few): the apps pass replaces the list. */
  apps(): Promise<Map<string, ExportedApp>>;
  putApps(rows: readonly ExportedApp[]): Promise<void>;
  deleteApps(ids: readonly string[]): Promise<void>;

  /** What the copy holds of those of `ids` it has. */
  heldSessions(ids: readonly string[]): Promise<Map<string, HeldSession>>;
  putSessions(rows: readonly SessionPut[]): Promise<void>;
  /** Deletes sessions with their transcripts; answers how many the copy had. */
  deleteSessions(ids: readonly string[]): Promise<number>;
  /** Deletes every session of a consumer; answers how many. */
  deleteSessionsOfConsumer(consumerId: string): Promise<number>;
  /** Those of `ids` a tombstone deleted: a late listing of one of them is never upserted again. */
  tombstonedOf(ids: readonly string[]): Promise<Set<string>>;
  markTombstoned(ids: readonly string[]): Promise<void>;
  markErased(consumerIds: readonly string[]): Promise<void>;

  /** Those of `ids` already applied. */
  ingestedOf(ids: readonly string[]): Promise<Set<string>>;
  /** Records tombstones as applied, after the ones applied before, in this order. */
  addTombstones(rows: readonly Tombstone[]): Promise<void>;

  putUsage(rows: readonly ExportedUsageRow[]): Promise<void>;

  commit(): Promise<void>;
  rollback(): Promise<void>;
}

/** Where the sync client keeps its copy; one pass at a time. */
export interface LocalStore {
  begin(): Promise<CopyPass>;
  /** The whole copy in memory: for tests, small copies and tools; the sync client never calls it. */
  load(): Promise<LocalCopy>;
  /** Releases the target (file handles, locks); the store is not used afterwards. */
  close?(): Promise<void>;
}

export function emptyCopy(): LocalCopy {
  return {
    apps: new Map(),
    sessions: new Map(),
    usage: new Map(),
    tombstones: new Map(),
    state: { sessionsCheckpoint: null, usageCheckpoint: null, ingestedTombstoneIds: [], tombstonedSessionIds: [], erasedConsumerIds: [] },
  };
}

/** Replaces what `store` holds with `copy`, in one pass: for imports and tests. */
export async function writeCopy(store: LocalStore, copy: LocalCopy): Promise<void> {
  const pass = await store.begin();
  try {
    await pass.clear();
    await pass.putApps([...copy.apps.values()]);
    await pass.putSessions([...copy.sessions.values()]);
    await pass.putUsage([...copy.usage.values()]);
    await pass.addTombstones(copy.state.ingestedTombstoneIds.map((id) => copy.tombstones.get(id) ?? ({ id } as Tombstone)));
    await pass.markTombstoned(copy.state.tombstonedSessionIds);
    await pass.markErased(copy.state.erasedConsumerIds);
    await pass.setCheckpoint('sessions', copy.state.sessionsCheckpoint);
    await pass.setCheckpoint('usage', copy.state.usageCheckpoint);
    await pass.commit();
  } catch (err) {
    await pass.rollback();
    throw err;
  }
}

/** Which files of the JSON store a pass changed; the state file is always written. */
interface DirtyParts {
  apps: boolean;
  sessions: boolean;
  usage: boolean;
  tombstones: boolean;
}

/**
 * A pass over a copy held in memory (the JSON store's): it changes the copy in place and the store
 * writes the changed files on commit; a rollback drops the copy, and the next pass reads the files.
 */
class MemoryPass implements CopyPass {
  readonly dirty: DirtyParts = { apps: false, sessions: false, usage: false, tombstones: false };

  constructor(
    private readonly copy: LocalCopy,
    private readonly onCommit: (copy: LocalCopy, dirty: DirtyParts) => Promise<void>,
    private readonly onRollback: () => void,
  ) {}

  async checkpoints(): Promise<Checkpoints> {
    return { sessions: this.copy.state.sessionsCheckpoint, usage: this.copy.state.usageCheckpoint };
  }
  async setCheckpoint(name: keyof Checkpoints, value: string | null): Promise<void> {
    if (name === 'sessions') this.copy.state.sessionsCheckpoint = value;
    else this.copy.state.usageCheckpoint = value;
  }
  async isEmpty(): Promise<boolean> {
    const { state, sessions, usage } = this.copy;
    return state.sessionsCheckpoint === null && state.usageCheckpoint === null && sessions.size === 0 && usage.size === 0;
  }
  async clear(): Promise<void> {
    const empty = emptyCopy();
    for (const m of [this.copy.apps, this.copy.sessions, this.copy.usage, this.copy.tombstones]) m.clear();
    this.copy.state = empty.state;
    Object.assign(this.dirty, { apps: true, sessions: true, usage: true, tombstones: true });
  }
  async counts(): Promise<CopyCounts> {
    let messages = 0;
    for (const s of this.copy.sessions.values()) messages += s.messages.length;
    const { apps, sessions, usage, tombstones } = this.copy;
    return { apps: apps.size, sessions: sessions.size, messages, usage: usage.size, tombstones: tombstones.size };
  }
  async apps(): Promise<Map<string, ExportedApp>> {
    return new Map(this.copy.apps);
  }
  async putApps(rows: readonly ExportedApp[]): Promise<void> {
    for (const row of rows) this.copy.apps.set(row.id, row);
    if (rows.length) this.dirty.apps = true;
  }
  async deleteApps(ids: readonly string[]): Promise<void> {
    for (const id of ids) if (this.copy.apps.delete(id)) this.dirty.apps = true;
  }
  async heldSessions(ids: readonly string[]): Promise<Map<string, HeldSession>> {
    const out = new Map<string, HeldSession>();
    for (const id of ids) {
      const s = this.copy.sessions.get(id);
      if (s) out.set(id, { lastActivityAt: s.session.last_activity_at, zdr: s.zdr });
    }
    return out;
  }
  async putSessions(rows: readonly SessionPut[]): Promise<void> {
    for (const { session, zdr, messages } of rows) {
      this.copy.sessions.set(session.id, { session, messages: messages ?? this.copy.sessions.get(session.id)?.messages ?? [], zdr });
    }
    if (rows.length) this.dirty.sessions = true;
  }
  async deleteSessions(ids: readonly string[]): Promise<number> {
    let n = 0;
    for (const id of ids) if (this.copy.sessions.delete(id)) n++;
    if (n) this.dirty.sessions = true;
    return n;
  }
  async deleteSessionsOfConsumer(consumerId: string): Promise<number> {
    const ids = [...this.copy.sessions].filter(([, s]) => s.session.consumer_id === consumerId).map(([id]) => id);
    return this.deleteSessions(ids);
  }
  async tombstonedOf(ids: readonly string[]): Promise<Set<string>> {
    const all = new Set(this.copy.state.tombstonedSessionIds);
    return new Set(ids.filter((id) => all.has(id)));
  }
  async markTombstoned(ids: readonly string[]): Promise<void> {
    this.copy.state.tombstonedSessionIds = [...new Set([...this.copy.state.tombstonedSessionIds, ...ids])];
  }
  async markErased(consumerIds: readonly string[]): Promise<void> {
    this.copy.state.erasedConsumerIds = [...new Set([...this.copy.state.erasedConsumerIds, ...consumerIds])];
  }
  async ingestedOf(ids: readonly string[]): Promise<Set<string>> {
    return new Set(ids.filter((id) => this.copy.tombstones.has(id)));
  }
  async addTombstones(rows: readonly Tombstone[]): Promise<void> {
    for (const t of rows) {
      if (this.copy.tombstones.has(t.id)) continue;
      this.copy.tombstones.set(t.id, t);
      this.copy.state.ingestedTombstoneIds.push(t.id);
      this.dirty.tombstones = true;
    }
  }
  async putUsage(rows: readonly ExportedUsageRow[]): Promise<void> {
    for (const row of rows) this.copy.usage.set(String(row.id), row);
    if (rows.length) this.dirty.usage = true;
  }
  async commit(): Promise<void> {
    try {
      await this.onCommit(this.copy, this.dirty);
    } catch (err) {
      this.onRollback();
      throw err;
    }
  }
  async rollback(): Promise<void> {
    this.onRollback();
  }
}

const STATE_VERSION = 1;

interface StateFile {
  version: number;
  sessions_checkpoint: string | null;
  usage_checkpoint: string | null;
  tombstones: { ingested_ids: string[] };
  tombstoned_session_ids: string[];
  erased_consumer_ids: string[];
}

async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read ${path}: ${String(err)}`);
  }
}

/** Writes `text` to `path` so that a reader (or a crash) sees either the old file or the new one. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(text, 'utf8');
    await fh.sync();
  } catch (err) {
    await fh.close();
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fh.close();
  try {
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

const sortedObject = <T>(m: Map<string, T>): Record<string, T> => {
  const out: Record<string, T> = {};
  for (const k of [...m.keys()].sort()) Object.defineProperty(out, k, { value: m.get(k), enumerable: true, writable: true, configurable: true });
  return out;
};

/** The JSON files of one copy under `dir` (created on first save). */
export class JsonDirStore implements LocalStore {
  /** The copy as the last commit left it; read from the files by the first pass, dropped by a rollback. */
  private committed: LocalCopy | undefined;

  constructor(readonly dir: string) {}

  async begin(): Promise<CopyPass> {
    const copy = this.committed ?? (await this.load());
    this.committed = undefined;
    return new MemoryPass(
      copy,
      async (c, dirty) => {
        await this.write(c, dirty);
        this.committed = c;
      },
      () => {
        this.committed = undefined;
      },
    );
  }

  async load(): Promise<LocalCopy> {
    const copy = emptyCopy();
    const apps = await readJson<{ apps?: Record<string, ExportedApp> }>(join(this.dir, 'apps.json'));
    for (const [id, a] of Object.entries(apps?.apps ?? {})) copy.apps.set(id, a);
    const tombstones = await readJson<{ tombstones?: Record<string, Tombstone> }>(join(this.dir, 'tombstones.json'));
    for (const [id, t] of Object.entries(tombstones?.tombstones ?? {})) copy.tombstones.set(id, t);
    const sessions = await readJson<{ sessions?: Record<string, StoredSession> }>(join(this.dir, 'sessions.json'));
    for (const [id, s] of Object.entries(sessions?.sessions ?? {})) copy.sessions.set(id, s);
    const usage = await readJson<{ usage?: Record<string, ExportedUsageRow> }>(join(this.dir, 'usage.json'));
    for (const [id, u] of Object.entries(usage?.usage ?? {})) copy.usage.set(id, u);
    const state = await readJson<StateFile>(join(this.dir, 'state.json'));
    if (state) {
      if (state.version !== STATE_VERSION) throw new Error(`${join(this.dir, 'state.json')}: unsupported version ${state.version}`);
      copy.state = {
        sessionsCheckpoint: state.sessions_checkpoint ?? null,
        usageCheckpoint: state.usage_checkpoint ?? null,
        ingestedTombstoneIds: state.tombstones?.ingested_ids ?? [],
        tombstonedSessionIds: state.tombstoned_session_ids ?? [],
        erasedConsumerIds: state.erased_consumer_ids ?? [],
      };
    }
    return copy;
  }

  private async write(copy: LocalCopy, parts: DirtyParts): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    if (parts.apps) await writeFileAtomic(join(this.dir, 'apps.json'), `${JSON.stringify({ apps: sortedObject(copy.apps) })}\n`);
    if (parts.sessions) await writeFileAtomic(join(this.dir, 'sessions.json'), `${JSON.stringify({ sessions: sortedObject(copy.sessions) })}\n`);
    if (parts.usage) await writeFileAtomic(join(this.dir, 'usage.json'), `${JSON.stringify({ usage: sortedObject(copy.usage) })}\n`);
    if (parts.tombstones) await writeFileAtomic(join(this.dir, 'tombstones.json'), `${JSON.stringify({ tombstones: sortedObject(copy.tombstones) })}\n`);
    const s = copy.state;
    const file: StateFile = {
      version: STATE_VERSION,
      sessions_checkpoint: s.sessionsCheckpoint,
      usage_checkpoint: s.usageCheckpoint,
      tombstones: { ingested_ids: s.ingestedTombstoneIds },
      tombstoned_session_ids: s.tombstonedSessionIds,
      erased_consumer_ids: s.erasedConsumerIds,
    };
    await writeFileAtomic(join(this.dir, 'state.json'), `${JSON.stringify(file, null, 2)}\n`);
  }
}
