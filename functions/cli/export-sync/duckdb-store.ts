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
 * A save is one transaction: the rows the pass changed and the state after that pass (checkpoints,
 * applied tombstones) commit together, so a crash never leaves a checkpoint ahead of the data. It
 * writes only what changed since the copy was loaded or last saved (the sync client replaces a row's
 * object when it changes, so a reference comparison finds them): upserts by key (INSERT … ON CONFLICT
 * DO UPDATE, from a staging table the appender fills) and deletes of what left the copy, a deleted
 * session taking its messages with it. A
 * session's messages are rewritten only when its transcript was fetched again.
 *
 * DuckDB locks the file for the process that opened it: a second client fails to open it
 * (TargetInUseError), which keeps one client per copy, and readers open it between runs.
 */
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import {
  APPS,
  columnsOf,
  fromColumns,
  type ID_SETS,
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
  emptyCopy,
  type ExportedApp,
  type ExportedUsageRow,
  type LocalCopy,
  type LocalStore,
  type SavedParts,
  type StoredSession,
  type Tombstone,
} from './local-store';

/** Another process holds the target. */
export class TargetInUseError extends Error {
  override readonly name = 'TargetInUseError';
}

const CHUNK = 200;

interface Snapshot {
  apps: Map<string, ExportedApp>;
  sessions: Map<string, StoredSession>;
  usage: Map<string, ExportedUsageRow>;
  ingested: Set<string>;
  sets: Record<(typeof ID_SETS)[number], Set<string>>;
}

export interface DuckDbStoreOptions {
  /** Runs inside the save transaction, after every write and before COMMIT: a seam for crash tests. */
  readonly beforeCommit?: () => void | Promise<void>;
}

export class DuckDbStore implements LocalStore {
  private snapshot: Snapshot | undefined;

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
      instance = await DuckDBInstance.create(path);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (/could not set lock/i.test(message)) throw new TargetInUseError(`${path} is in use by another process: ${message}`);
      throw err;
    }
    const db = await instance.connect();
    for (const sql of SCHEMA) await db.run(sql);
    return new DuckDbStore(path, instance, db, opts);
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
    const checkpoints = (await this.db.runAndReadAll('SELECT name, value FROM sync_checkpoint')).getRowObjects();
    const checkpoint = (name: string) => (checkpoints.find((c) => c.name === name)?.value as string | null | undefined) ?? null;
    copy.state.sessionsCheckpoint = checkpoint('sessions');
    copy.state.usageCheckpoint = checkpoint('usage');
    const ids = async (table: string) => (await this.db.runAndReadAll(`SELECT id FROM ${table} ORDER BY seq`)).getRowObjects().map((r) => String(r.id));
    copy.state.tombstonedSessionIds = await ids('sync_tombstoned_sessions');
    copy.state.erasedConsumerIds = await ids('sync_erased_consumers');
    this.snapshot = snapshotOf(copy);
    return copy;
  }

  async save(copy: LocalCopy, parts: SavedParts): Promise<void> {
    if (!this.snapshot) await this.load();
    const before = this.snapshot!;
    await this.db.run('BEGIN TRANSACTION');
    try {
      if (parts.apps) await this.sync(APPS, before.apps, copy.apps, (a) => toColumns(APPS, a));
      if (parts.sessions) await this.saveSessions(before.sessions, copy.sessions);
      if (parts.usage) await this.sync(USAGE, before.usage, copy.usage, (u) => toColumns(USAGE, u));
      await this.saveState(before, copy);
      await this.opts.beforeCommit?.();
      await this.db.run('COMMIT');
    } catch (err) {
      await this.db.run('ROLLBACK').catch(() => undefined);
      throw err;
    }
    const after = snapshotOf(copy);
    this.snapshot = {
      apps: parts.apps ? after.apps : before.apps,
      sessions: parts.sessions ? after.sessions : before.sessions,
      usage: parts.usage ? after.usage : before.usage,
      ingested: after.ingested,
      sets: after.sets,
    };
  }

  async close(): Promise<void> {
    this.db.closeSync();
    this.instance.closeSync();
  }

  private async saveSessions(before: Map<string, StoredSession>, now: Map<string, StoredSession>): Promise<void> {
    const gone = [...before.keys()].filter((id) => !now.has(id));
    const changed = [...now].filter(([id, s]) => before.get(id) !== s);
    const refetched = changed.filter(([id, s]) => before.get(id)?.messages !== s.messages).map(([id]) => id);
    // A deleted session takes its messages with it; a fetched transcript replaces the old one.
    await this.deleteWhere(MESSAGES.name, 'session_id', [...gone, ...refetched]);
    await this.deleteWhere(SESSIONS.name, 'id', gone);
    await this.upsert(
      SESSIONS,
      changed.map(([, s]) => toColumns(SESSIONS, s.session, { zdr: s.zdr })),
    );
    const messageRows: DuckDBValue[][] = [];
    for (const id of refetched) {
      const byId = new Map<string, DuckDBValue[]>();
      now.get(id)!.messages.forEach((m, seq) => {
        byId.set(String((m as Row).id), toColumns(MESSAGES, m as Row, { session_id: id, seq }));
      });
      messageRows.push(...byId.values());
    }
    await this.upsert(MESSAGES, messageRows);
  }

  private async saveState(before: Snapshot, copy: LocalCopy): Promise<void> {
    const s = copy.state;
    const checkpoints = [
      ['sessions', s.sessionsCheckpoint],
      ['usage', s.usageCheckpoint],
    ];
    await this.db.run(
      'INSERT INTO sync_checkpoint (name, value, saved_at) VALUES (?, ?, now()), (?, ?, now()) ON CONFLICT (name) DO UPDATE SET value = excluded.value, saved_at = excluded.saved_at',
      checkpoints.flat(),
    );
    await this.syncIds(TOMBSTONES.name, before.ingested, s.ingestedTombstoneIds, (id, seq) => {
      const t = copy.tombstones.get(id);
      return toColumns(TOMBSTONES, t ?? { id }, { ingested_seq: seq });
    });
    await this.syncIds('sync_tombstoned_sessions', before.sets.sync_tombstoned_sessions, s.tombstonedSessionIds, (id, seq) => [id, BigInt(seq)]);
    await this.syncIds('sync_erased_consumers', before.sets.sync_erased_consumers, s.erasedConsumerIds, (id, seq) => [id, BigInt(seq)]);
  }

  /** Makes the table hold exactly `now`: upserts rows whose object changed, deletes the ones that left. */
  private async sync<T>(t: Table, before: Map<string, T>, now: Map<string, T>, columns: (row: T) => DuckDBValue[]): Promise<void> {
    const [key, kind] = t.fields.find(([c]) => c === t.key[0])!;
    await this.deleteWhere(
      t.name,
      key,
      [...before.keys()].filter((id) => !now.has(id)),
      kind,
    );
    await this.upsert(
      t,
      [...now].filter(([id, row]) => before.get(id) !== row).map(([, row]) => columns(row)),
    );
  }

  /** Makes an id table hold exactly `ids`, inserting the new ones with their position as seq. */
  private async syncIds(table: string, before: Set<string>, ids: readonly string[], columns: (id: string, seq: number) => DuckDBValue[]): Promise<void> {
    const now = new Set(ids);
    await this.deleteWhere(
      table,
      'id',
      [...before].filter((id) => !now.has(id)),
    );
    const rows = ids.flatMap((id, seq) => (before.has(id) ? [] : [columns(id, seq)]));
    if (table === TOMBSTONES.name) await this.upsert(TOMBSTONES, rows);
    else
      for (let i = 0; i < rows.length; i += CHUNK) {
        const chunk = rows.slice(i, i + CHUNK);
        await this.db.run(
          `INSERT INTO ${table} (id, seq) VALUES ${chunk.map(() => '(?, ?)').join(', ')} ON CONFLICT (id) DO UPDATE SET seq = excluded.seq`,
          chunk.flat(),
        );
      }
  }

  /**
   * Upserts by key through a staging table: the rows go in with DuckDB's appender (all text), then one
   * INSERT … SELECT casts them to the table's types and upserts them, inside the save's transaction.
   * Tens of thousands of rows a second, where a parameterized INSERT per chunk managed a few thousand.
   */
  private async upsert(t: Table, rows: DuckDBValue[][]): Promise<void> {
    if (rows.length === 0) return;
    const columns = columnsOf(t);
    const stage = `stage_${t.name}`;
    await this.db.run(`CREATE TEMP TABLE IF NOT EXISTS ${stage} (${columns.map(([c]) => `${c} VARCHAR`).join(', ')})`);
    await this.db.run(`DELETE FROM ${stage}`);
    const appender = await this.db.createAppender(stage, null, 'temp');
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
    const updates = columns
      .filter(([c]) => !t.key.includes(c))
      .map(([c]) => `${c} = excluded.${c}`)
      .join(', ');
    const select = columns.map(([c, k]) => (k === 'text' ? c : `CAST(${c} AS ${SQL_TYPE[k]})`)).join(', ');
    await this.db.run(
      `INSERT INTO ${t.name} (${columns.map(([c]) => c).join(', ')}) SELECT ${select} FROM ${stage} ON CONFLICT (${t.key.join(', ')}) DO UPDATE SET ${updates}`,
    );
    await this.db.run(`DELETE FROM ${stage}`);
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

function snapshotOf(copy: LocalCopy): Snapshot {
  return {
    apps: new Map(copy.apps),
    sessions: new Map(copy.sessions),
    usage: new Map(copy.usage),
    ingested: new Set(copy.state.ingestedTombstoneIds),
    sets: { sync_tombstoned_sessions: new Set(copy.state.tombstonedSessionIds), sync_erased_consumers: new Set(copy.state.erasedConsumerIds) },
  };
}
