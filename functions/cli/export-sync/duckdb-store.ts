/**
 * The sync client's copy in an embedded DuckDB database (`--duckdb <file>`), for querying with SQL:
 *
 *   apps        id, name, slug, created_at, updated_at                                   key id
 *   sessions    the list row's fields, plus zdr (the transcript's Zero Data Retention flag)  key id
 *   messages    session_id, seq (order in the transcript), id, role, content, created_at, tools
 *                                                                                        key (session_id, id)
 *   usage       the usage row's fields (cost_usd stays the API's decimal string)           key id
 *   tombstones  the applied tombstones, plus ingested_seq (the order they were applied)    key id
 *   sync_checkpoint           name ('sessions' | 'usage'), value (the checkpoint as the API wrote it), saved_at
 *   sync_tombstoned_sessions  sessions a tombstone deleted (never upserted again)
 *   sync_erased_consumers     consumers a tombstone erased
 *
 * Every data table also has `extra` (JSON): fields the export adds later, kept as they came. A known field
 * the API left out reads back as null. Timestamps are TIMESTAMPTZ; query_params and tools are JSON.
 *
 * A pass is one transaction: the rows it changed and the state after it (checkpoints, applied
 * tombstones) commit together, so a crash never leaves a checkpoint ahead of the data. The sync client
 * works row by row through the pass and never holds the copy: upserts are buffered a few thousand rows
 * at a time and written by key (INSERT … ON CONFLICT DO UPDATE, from a staging table the appender
 * fills), reads and deletes go to the tables inside the transaction, so memory stays flat whatever the
 * size of the org. A deleted session takes its messages with it; a session's messages are rewritten
 * only when its transcript came again.
 *
 * DuckDB locks the file for the process that opened it: a second client fails to open it
 * (TargetInUseError), which keeps one client per copy, and readers open it between runs.
 */
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import {
  APPS,
  columnsOf,
  fromColumns,
  fromSql,
  ID_SETS as ID_SET_TABLES,
  type Kind,
  MESSAGES,
  placeholder,
  type Row,
  SCHEMA,
  selectList,
  SESSIONS,
  SQL_TYPE,
  type Table,
  TOMBSTONES,
  toColumns,
  toSql,
  USAGE,
} from './duckdb-tables';
import {
  type Checkpoints,
  type CopyCounts,
  type CopyPass,
  emptyCopy,
  type ExportedApp,
  type ExportedUsageRow,
  type HeldSession,
  type LocalCopy,
  type LocalStore,
  type SessionPut,
  type StoredSession,
  type Tombstone,
} from './local-store';

/** Another process holds the target. */
export class TargetInUseError extends Error {
  override readonly name = 'TargetInUseError';
}

/** Ids per `IN (…)` list. */
const CHUNK = 200;
/** Buffered upserts are written once this many sessions, messages or usage rows wait. */
const FLUSH_SESSIONS = 1000;
const FLUSH_MESSAGES = 20_000;
const FLUSH_USAGE = 5000;

/**
 * DuckDB's own default is 80% of the machine's memory, as a cache. A pass is one transaction whose
 * uncommitted rows DuckDB keeps in memory up to this limit and spills beyond it (to `<file>.tmp`), so
 * the client's memory stays flat however large the first load: measured by
 * `npm run bench -- export-client-memory`.
 */
export const DEFAULT_MEMORY_LIMIT = '256MB';

export interface DuckDbStoreOptions {
  /** DuckDB's memory limit (`256MB`, `1GB`): DEFAULT_MEMORY_LIMIT when not given. */
  readonly memoryLimit?: string;
  /** Runs inside a pass's transaction, after every write and before COMMIT: a seam for crash tests. */
  readonly beforeCommit?: () => void | Promise<void>;
}

export class DuckDbStore implements LocalStore {
  private open: DuckDbPass | undefined;

  private constructor(
    readonly path: string,
    private readonly instance: DuckDBInstance,
    private readonly db: DuckDBConnection,
    private readonly opts: DuckDbStoreOptions,
  ) {}

  /** Opens (or creates) the database file and its tables; TargetInUseError when another process has it. */
  static async open(path: string, opts: DuckDbStoreOptions = {}): Promise<DuckDbStore> {
    let instance: DuckDBInstance;
    try {
      instance = await DuckDBInstance.create(path, { memory_limit: opts.memoryLimit ?? DEFAULT_MEMORY_LIMIT });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (/could not set lock/i.test(message)) throw new TargetInUseError(`${path} is in use by another process: ${message}`);
      throw err;
    }
    const db = await instance.connect();
    for (const sql of SCHEMA) await db.run(sql);
    return new DuckDbStore(path, instance, db, opts);
  }

  async begin(): Promise<CopyPass> {
    if (this.open) throw new Error(`${this.path}: a pass is already open`);
    await this.db.run('BEGIN TRANSACTION');
    this.open = new DuckDbPass(this.db, this.opts, () => {
      this.open = undefined;
    });
    return this.open;
  }

  async load(): Promise<LocalCopy> {
    const copy = emptyCopy();
    const rows = async (t: Table, order: string) =>
      (await this.db.runAndReadAll(`SELECT ${selectList(t)} FROM ${t.name} ORDER BY ${order}`)).getRowObjects() as Row[];
    for (const r of await rows(APPS, 'id')) copy.apps.set(String(r.id), fromColumns(APPS, r) as ExportedApp);
    const messages = new Map<string, unknown[]>();
    for (const r of await rows(MESSAGES, 'session_id, seq')) {
      const id = String(r.session_id);
      if (!messages.has(id)) messages.set(id, []);
      messages.get(id)!.push(fromColumns(MESSAGES, r));
    }
    for (const r of await rows(SESSIONS, 'id')) {
      const id = String(r.id);
      copy.sessions.set(id, { session: fromColumns(SESSIONS, r) as StoredSession['session'], messages: messages.get(id) ?? [], zdr: r.zdr === true });
    }
    for (const r of await rows(USAGE, 'id')) copy.usage.set(String(r.id), fromColumns(USAGE, r) as ExportedUsageRow);
    for (const r of await rows(TOMBSTONES, 'ingested_seq')) {
      copy.tombstones.set(String(r.id), fromColumns(TOMBSTONES, r) as Tombstone);
      copy.state.ingestedTombstoneIds.push(String(r.id));
    }
    const checkpoints = await readCheckpoints(this.db);
    copy.state.sessionsCheckpoint = checkpoints.sessions;
    copy.state.usageCheckpoint = checkpoints.usage;
    const ids = async (table: string) => (await this.db.runAndReadAll(`SELECT id FROM ${table} ORDER BY seq`)).getRowObjects().map((r) => String(r.id));
    copy.state.tombstonedSessionIds = await ids('sync_tombstoned_sessions');
    copy.state.erasedConsumerIds = await ids('sync_erased_consumers');
    return copy;
  }

  async close(): Promise<void> {
    if (this.open) await this.open.rollback();
    this.db.closeSync();
    this.instance.closeSync();
  }
}

async function readCheckpoints(db: DuckDBConnection): Promise<Checkpoints> {
  const rows = (await db.runAndReadAll('SELECT name, value FROM sync_checkpoint')).getRowObjects();
  const value = (name: string) => (rows.find((c) => c.name === name)?.value as string | null | undefined) ?? null;
  return { sessions: value('sessions'), usage: value('usage') };
}

/** One transaction over the tables; buffered upserts are written before any read or delete that could see them. */
class DuckDbPass implements CopyPass {
  private readonly sessions = new Map<string, SessionPut>();
  private pendingMessages = 0;
  private readonly usage = new Map<string, ExportedUsageRow>();
  private ended = false;

  constructor(
    private readonly db: DuckDBConnection,
    private readonly opts: DuckDbStoreOptions,
    private readonly release: () => void,
  ) {}

  async checkpoints(): Promise<Checkpoints> {
    return readCheckpoints(this.db);
  }

  async setCheckpoint(name: keyof Checkpoints, value: string | null): Promise<void> {
    await this.db.run(
      'INSERT INTO sync_checkpoint (name, value, saved_at) VALUES (?, ?, now()) ON CONFLICT (name) DO UPDATE SET value = excluded.value, saved_at = excluded.saved_at',
      [name, value],
    );
  }

  async isEmpty(): Promise<boolean> {
    const c = await this.checkpoints();
    if (c.sessions !== null || c.usage !== null) return false;
    await this.flush();
    return (await this.count('SELECT (SELECT count(*) FROM sessions) + (SELECT count(*) FROM usage)')) === 0;
  }

  async clear(): Promise<void> {
    this.sessions.clear();
    this.usage.clear();
    this.pendingMessages = 0;
    for (const table of [APPS.name, SESSIONS.name, MESSAGES.name, USAGE.name, TOMBSTONES.name, 'sync_checkpoint', ...ID_SET_TABLES]) {
      await this.db.run(`DELETE FROM ${table}`);
    }
  }

  async counts(): Promise<CopyCounts> {
    await this.flush();
    const r = (
      await this.db.runAndReadAll(
        'SELECT (SELECT count(*) FROM apps) AS apps, (SELECT count(*) FROM sessions) AS sessions, (SELECT count(*) FROM messages) AS messages, (SELECT count(*) FROM usage) AS usage, (SELECT count(*) FROM tombstones) AS tombstones',
      )
    ).getRowObjects()[0]!;
    return { apps: Number(r.apps), sessions: Number(r.sessions), messages: Number(r.messages), usage: Number(r.usage), tombstones: Number(r.tombstones) };
  }

  async apps(): Promise<Map<string, ExportedApp>> {
    const rows = (await this.db.runAndReadAll(`SELECT ${selectList(APPS)} FROM apps ORDER BY id`)).getRowObjects() as Row[];
    return new Map(rows.map((r) => [String(r.id), fromColumns(APPS, r) as ExportedApp]));
  }

  async putApps(rows: readonly ExportedApp[]): Promise<void> {
    await upsert(
      this.db,
      APPS,
      rows.map((a) => toColumns(APPS, a)),
    );
  }

  async deleteApps(ids: readonly string[]): Promise<void> {
    await this.deleteWhere(APPS.name, 'id', ids);
  }

  async heldSessions(ids: readonly string[]): Promise<Map<string, HeldSession>> {
    await this.flush();
    const out = new Map<string, HeldSession>();
    for (const r of await this.selectIn('SELECT id, epoch_ms(last_activity_at) AS ms, zdr FROM sessions WHERE id IN', ids)) {
      out.set(String(r.id), { lastActivityAt: fromSql('ts', r.ms) as string, zdr: r.zdr === true });
    }
    return out;
  }

  async putSessions(rows: readonly SessionPut[]): Promise<void> {
    for (const put of rows) {
      const earlier = this.sessions.get(put.session.id);
      // A row without a transcript keeps the one buffered before it.
      const merged = put.messages === undefined && earlier?.messages !== undefined ? { ...put, messages: earlier.messages } : put;
      this.pendingMessages += (merged.messages?.length ?? 0) - (earlier?.messages?.length ?? 0);
      this.sessions.set(put.session.id, merged);
    }
    if (this.sessions.size >= FLUSH_SESSIONS || this.pendingMessages >= FLUSH_MESSAGES) await this.flush();
  }

  async deleteSessions(ids: readonly string[]): Promise<number> {
    await this.flush();
    const held = (await this.selectIn('SELECT id FROM sessions WHERE id IN', ids)).map((r) => String(r.id));
    await this.deleteWhere(MESSAGES.name, 'session_id', held);
    await this.deleteWhere(SESSIONS.name, 'id', held);
    return held.length;
  }

  async deleteSessionsOfConsumer(consumerId: string): Promise<number> {
    await this.flush();
    const ids = (await this.db.runAndReadAll('SELECT id FROM sessions WHERE consumer_id = ?', [consumerId])).getRowObjects().map((r) => String(r.id));
    return this.deleteSessions(ids);
  }

  async tombstonedOf(ids: readonly string[]): Promise<Set<string>> {
    return new Set((await this.selectIn('SELECT id FROM sync_tombstoned_sessions WHERE id IN', ids)).map((r) => String(r.id)));
  }

  async markTombstoned(ids: readonly string[]): Promise<void> {
    await this.appendIds('sync_tombstoned_sessions', ids);
  }

  async markErased(consumerIds: readonly string[]): Promise<void> {
    await this.appendIds('sync_erased_consumers', consumerIds);
  }

  async ingestedOf(ids: readonly string[]): Promise<Set<string>> {
    return new Set((await this.selectIn('SELECT id FROM tombstones WHERE id IN', ids)).map((r) => String(r.id)));
  }

  async addTombstones(rows: readonly Tombstone[]): Promise<void> {
    const known = await this.ingestedOf(rows.map((t) => t.id));
    const fresh = [...new Map(rows.filter((t) => !known.has(t.id)).map((t) => [t.id, t])).values()];
    const base = await this.count('SELECT coalesce(max(ingested_seq) + 1, 0) FROM tombstones');
    await upsert(
      this.db,
      TOMBSTONES,
      fresh.map((t, i) => toColumns(TOMBSTONES, t, { ingested_seq: base + i })),
    );
  }

  async putUsage(rows: readonly ExportedUsageRow[]): Promise<void> {
    for (const row of rows) this.usage.set(String(row.id), row);
    if (this.usage.size >= FLUSH_USAGE) await this.flush();
  }

  async commit(): Promise<void> {
    this.assertOpen();
    try {
      await this.flush();
      await this.opts.beforeCommit?.();
      await this.db.run('COMMIT');
    } catch (err) {
      await this.rollback();
      throw err;
    }
    this.end();
  }

  async rollback(): Promise<void> {
    if (this.ended) return;
    this.sessions.clear();
    this.usage.clear();
    await this.db.run('ROLLBACK').catch(() => undefined);
    this.end();
  }

  private end(): void {
    this.ended = true;
    this.release();
  }

  private assertOpen(): void {
    if (this.ended) throw new Error('the pass has ended');
  }

  /** Writes the buffered upserts: sessions (a new transcript replacing the old one), then usage rows. */
  private async flush(): Promise<void> {
    this.assertOpen();
    if (this.sessions.size > 0) {
      const puts = [...this.sessions.values()];
      this.sessions.clear();
      this.pendingMessages = 0;
      const withTranscript = puts.filter((p) => p.messages !== undefined);
      // A new transcript replaces the old one: only a session the copy has can have messages to delete
      // (none on a first load, so the messages table is not scanned for them).
      const held = await this.selectIn(
        'SELECT id FROM sessions WHERE id IN',
        withTranscript.map((p) => p.session.id),
      );
      await this.deleteWhere(
        MESSAGES.name,
        'session_id',
        held.map((r) => String(r.id)),
      );
      await upsert(
        this.db,
        SESSIONS,
        puts.map((p) => toColumns(SESSIONS, p.session, { zdr: p.zdr })),
      );
      const messageRows: DuckDBValue[][] = [];
      for (const p of withTranscript) {
        // The key is (session_id, id): a transcript naming an id twice keeps its last message.
        const byId = new Map<string, DuckDBValue[]>();
        p.messages!.forEach((m, seq) => {
          byId.set(String((m as Row).id), toColumns(MESSAGES, m as Row, { session_id: p.session.id, seq }));
        });
        messageRows.push(...byId.values());
      }
      await upsert(this.db, MESSAGES, messageRows, true);
    }
    if (this.usage.size > 0) {
      const rows = [...this.usage.values()];
      this.usage.clear();
      await upsert(
        this.db,
        USAGE,
        rows.map((u) => toColumns(USAGE, u)),
      );
    }
  }

  private async count(sql: string): Promise<number> {
    return Number(Object.values((await this.db.runAndReadAll(sql)).getRowObjects()[0]!)[0]);
  }

  private async selectIn(sql: string, ids: readonly string[]): Promise<Row[]> {
    const out: Row[] = [];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      out.push(...((await this.db.runAndReadAll(`${sql} (${chunk.map(() => '?').join(', ')})`, [...chunk])).getRowObjects() as Row[]));
    }
    return out;
  }

  /** Adds ids an id table does not have yet, after the ones it has. */
  private async appendIds(table: string, ids: readonly string[]): Promise<void> {
    const held = new Set((await this.selectIn(`SELECT id FROM ${table} WHERE id IN`, ids)).map((r) => String(r.id)));
    const fresh = [...new Set(ids)].filter((id) => !held.has(id));
    const base = await this.count(`SELECT coalesce(max(seq) + 1, 0) FROM ${table}`);
    for (let i = 0; i < fresh.length; i += CHUNK) {
      const chunk = fresh.slice(i, i + CHUNK);
      await this.db.run(
        `INSERT INTO ${table} (id, seq) VALUES ${chunk.map(() => '(?, ?)').join(', ')}`,
        chunk.flatMap((id, j) => [id, BigInt(base + i + j)]),
      );
    }
  }

  private async deleteWhere(table: string, column: string, ids: readonly string[], kind: Kind = 'text'): Promise<void> {
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      await this.db.run(
        `DELETE FROM ${table} WHERE ${column} IN (${chunk.map(() => placeholder(kind)).join(', ')})`,
        chunk.map((id) => toSql(kind, id)),
      );
    }
  }
}

/**
 * Writes rows through a staging table: the rows go in with DuckDB's appender (all text), then the
 * table's rows with the same key are deleted and one INSERT … SELECT casts the new ones to the table's
 * types, inside the pass's transaction. `fresh` skips the delete: the caller knows no row of the same
 * key is there (the messages of a session, whose transcript was deleted first). The tables have no
 * PRIMARY KEY: DuckDB holds such an index in memory, which would grow with the copy; the key is kept by
 * these writes instead (a batch holds a key once).
 */
async function upsert(db: DuckDBConnection, t: Table, rows: DuckDBValue[][], fresh = false): Promise<void> {
  if (rows.length === 0) return;
  const columns = columnsOf(t);
  const stage = `stage_${t.name}`;
  await db.run(`CREATE TEMP TABLE IF NOT EXISTS ${stage} (${columns.map(([c]) => `${c} VARCHAR`).join(', ')})`);
  await db.run(`DELETE FROM ${stage}`);
  const appender = await db.createAppender(stage, null, 'temp');
  try {
    for (const row of rows) {
      for (const v of row) {
        if (v === null || v === undefined) appender.appendNull();
        else appender.appendVarchar(String(v));
      }
      appender.endRow();
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  const cast = ([c, k]: readonly [string, Kind]) => (k === 'text' ? c : `CAST(${c} AS ${SQL_TYPE[k]})`);
  if (!fresh) {
    if (t.key.length !== 1) throw new Error(`${t.name}: a write by a composite key must be fresh`);
    const key = columns.find(([c]) => c === t.key[0])!;
    await db.run(`DELETE FROM ${t.name} WHERE ${key[0]} IN (SELECT ${cast(key)} FROM ${stage})`);
  }
  await db.run(`INSERT INTO ${t.name} (${columns.map(([c]) => c).join(', ')}) SELECT ${columns.map(cast).join(', ')} FROM ${stage}`);
  await db.run(`DELETE FROM ${stage}`);
}
