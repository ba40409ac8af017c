/**
 * Shared key encodings of the single table (docs/adr/0004-single-table-access-patterns.md). Sort keys
 * that order by time use fixed-width microseconds so string order equals numeric order.
 */
import type { Micros } from '../domain/time';

export const MICROS_WIDTH = 16;

export function padMicros(us: Micros): string {
  return String(Math.max(0, Math.floor(us))).padStart(MICROS_WIDTH, '0');
}

/** `<16-digit micros>#<id>`: the keyset position (sort value, id) of area A lists. */
export function timeIdKey(us: Micros, id: string): string {
  return `${padMicros(us)}#${id}`;
}

export function encodeCursor(key: Record<string, unknown> | undefined): string | undefined {
  return key ? Buffer.from(JSON.stringify(key), 'utf8').toString('base64url') : undefined;
}

export function decodeCursor(cursor: string | undefined): Record<string, unknown> | undefined {
  if (!cursor) return undefined;
  const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('bad internal cursor');
  return value as Record<string, unknown>;
}

export const TABLE_KEY = { pk: 'pk', sk: 'sk' } as const;

/** The named attributes an item has (absent ones stay absent): a stored record read back without its keys and index attributes. */
export function definedFields<T>(item: Record<string, unknown>, fields: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (item[f] !== undefined) out[f] = item[f];
  return out as T;
}

/** The named attributes of an item, an absent one as null: a record whose type spells its unset fields as null. */
export function fieldsOrNull<T>(item: Record<string, unknown>, fields: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = item[f] ?? null;
  return out as T;
}
