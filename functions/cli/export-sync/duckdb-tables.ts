/**
 * The tables of the DuckDB store (duckdb-store.ts) and the mapping between an export row and a table
 * row: the API's fields as typed columns in the API's order, the copy's own columns, and `extra` (JSON)
 * for fields the export adds later. A known field the API left out reads back as null.
 */
import type { DuckDBValue } from '@duckdb/node-api';

export type Kind = 'text' | 'ts' | 'json' | 'int' | 'bool';
export type Row = Record<string, unknown>;

export interface Table {
  readonly name: string;
  readonly key: readonly string[];
  /** Fields of the API row, in the API's order; `optional` ones are left out when null. */
  readonly fields: readonly (readonly [string, Kind])[];
  /** Columns the copy adds beside the API row. */
  readonly own: readonly (readonly [string, Kind])[];
  readonly optional?: readonly string[];
}

export const APPS: Table = {
  name: 'apps',
  key: ['id'],
  fields: [
    ['id', 'text'],
    ['name', 'text'],
    ['slug', 'text'],
    ['created_at', 'ts'],
    ['updated_at', 'ts'],
  ],
  own: [],
};
export const SESSIONS: Table = {
  name: 'sessions',
  key: ['id'],
  fields: [
    ['id', 'text'],
    ['app_id', 'text'],
    ['consumer_id', 'text'],
    ['consumer_email', 'text'],
    ['title', 'text'],
    ['source', 'text'],
    ['external_id', 'text'],
    ['query_params', 'json'],
    ['started_at', 'ts'],
    ['ended_at', 'ts'],
    ['last_activity_at', 'ts'],
    ['last_message_at', 'ts'],
  ],
  own: [['zdr', 'bool']],
};
export const MESSAGES: Table = {
  name: 'messages',
  key: ['session_id', 'id'],
  fields: [
    ['id', 'text'],
    ['role', 'text'],
    ['content', 'text'],
    ['created_at', 'ts'],
    ['tools', 'json'],
  ],
  own: [
    ['session_id', 'text'],
    ['seq', 'int'],
  ],
  optional: ['tools'],
};
export const USAGE: Table = {
  name: 'usage',
  key: ['id'],
  fields: [
    ['id', 'int'],
    ['app_id', 'text'],
    ['session_id', 'text'],
    ['consumer_id', 'text'],
    ['model', 'text'],
    ['source', 'text'],
    ['input_tokens', 'int'],
    ['output_tokens', 'int'],
    ['cache_read_input_tokens', 'int'],
    ['cache_creation_input_tokens', 'int'],
    ['cost_usd', 'text'],
    ['created_at', 'ts'],
  ],
  own: [],
};
export const TOMBSTONES: Table = {
  name: 'tombstones',
  key: ['id'],
  fields: [
    ['id', 'text'],
    ['resource_type', 'text'],
    ['resource_id', 'text'],
    ['cause', 'text'],
    ['deleted_at', 'ts'],
  ],
  own: [['ingested_seq', 'int']],
};
export const ID_SETS = ['sync_tombstoned_sessions', 'sync_erased_consumers'] as const;

export const SQL_TYPE: Record<Kind, string> = { text: 'VARCHAR', ts: 'TIMESTAMPTZ', json: 'JSON', int: 'BIGINT', bool: 'BOOLEAN' };
export const columnsOf = (t: Table) => [...t.own, ...t.fields, ['extra', 'json'] as const];
const notNull = (t: Table, c: string) => t.key.includes(c) || c === 'seq' || c === 'zdr' || c === 'ingested_seq';

export const SCHEMA = [
  ...[APPS, SESSIONS, MESSAGES, USAGE, TOMBSTONES].map(
    (t) =>
      `CREATE TABLE IF NOT EXISTS ${t.name} (${columnsOf(t)
        .map(([c, k]) => `${c} ${SQL_TYPE[k]}${notNull(t, c) ? ' NOT NULL' : ''}`)
        .join(', ')})`,
  ),
  'CREATE TABLE IF NOT EXISTS sync_checkpoint (name VARCHAR PRIMARY KEY, value VARCHAR, saved_at TIMESTAMPTZ NOT NULL)',
  ...ID_SETS.map((name) => `CREATE TABLE IF NOT EXISTS ${name} (id VARCHAR NOT NULL, seq BIGINT NOT NULL)`),
];

export function toSql(kind: Kind, v: unknown): DuckDBValue {
  if (v === null || v === undefined) return null;
  if (kind === 'json') return JSON.stringify(v);
  if (kind === 'bool') return v === true;
  if (kind === 'int') return typeof v === 'bigint' ? v : BigInt(v as number | string);
  return String(v);
}

export function fromSql(kind: Kind, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (kind === 'ts') return new Date(Number(v)).toISOString();
  if (kind === 'json') return JSON.parse(String(v));
  if (kind === 'int') return Number(v);
  return v;
}

/** The table row of an API row: its known fields, then `own`, then the rest as `extra`. */
export function toColumns(t: Table, row: Row, own: Row = {}): DuckDBValue[] {
  const known = new Set(t.fields.map(([c]) => c));
  const extra = Object.fromEntries(Object.entries(row).filter(([k]) => !known.has(k)));
  return columnsOf(t).map(([c, kind]) => toSql(kind, c === 'extra' ? (Object.keys(extra).length ? extra : null) : c in own ? own[c] : row[c]));
}

/** The API row back from a table row selected with `selectList`. */
export function fromColumns(t: Table, r: Row): Row {
  const out: Row = {};
  for (const [c, kind] of t.fields) {
    const v = fromSql(kind, r[c]);
    if (v !== null || !t.optional?.includes(c)) out[c] = v;
  }
  return { ...out, ...(fromSql('json', r.extra) as Row | null) };
}

export const selectList = (t: Table) =>
  columnsOf(t)
    .map(([c, k]) => (k === 'ts' ? `epoch_ms(${c}) AS ${c}` : k === 'json' ? `CAST(${c} AS VARCHAR) AS ${c}` : c))
    .join(', ');
export const placeholder = (k: Kind) => (k === 'text' ? '?' : `CAST(? AS ${SQL_TYPE[k]})`);
