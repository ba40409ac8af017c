/**
 * The sync client's local copy: the rows as the export shows them, plus the checkpoints, behind one
 * port (`LocalStore`) with two adapters: this JSON directory store (the default) and the DuckDB store
 * (duckdb-store.ts). The JSON directory store keeps its files under one directory, each replaced
 * atomically (temp file, fsync, rename) and only when a pass has completed:
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

/** Which parts of the copy a pass changed; the state is always saved. */
export interface SavedParts {
  readonly apps?: boolean;
  readonly sessions?: boolean;
  readonly usage?: boolean;
  readonly tombstones?: boolean;
}

/**
 * Where the sync client keeps its copy. `save` is the commit step of one pass: it must never leave the
 * saved state (checkpoints, ingested tombstones) ahead of the saved rows, even if the process dies
 * halfway (the JSON store writes the state file last, the DuckDB store writes both in one transaction).
 */
export interface LocalStore {
  load(): Promise<LocalCopy>;
  /** Persists the named parts, then the state. Called only when a pass has completed. */
  save(copy: LocalCopy, parts: SavedParts): Promise<void>;
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
  constructor(readonly dir: string) {}

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

  async save(copy: LocalCopy, parts: SavedParts): Promise<void> {
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
