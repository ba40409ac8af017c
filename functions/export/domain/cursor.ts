/**
 * Keyset cursors of the export lists: a position (sort value, id) bound to the endpoint, the org and
 * the filters it was made with, signed with HMAC-SHA256 so a client can neither forge nor move one.
 * Anything that does not verify is a 400; a cursor is never silently ignored (which would restart at
 * page one).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest } from '../../kernel/domain/errors';
import type { Micros } from '../../kernel/domain/time';

export interface KeysetPosition {
  /** The stored sort value in microseconds. */
  readonly sortUs: Micros;
  /** The tie-break id, compared as a string. */
  readonly id: string;
}

/** What a cursor is valid for: it is accepted only with exactly the same binding. */
export interface CursorBinding {
  readonly endpoint: string;
  readonly orgId: string;
  /** Canonical filters (already floored and normalised), excluding `limit` and `cursor`. */
  readonly filters: Readonly<Record<string, string | number | null>>;
}

const VERSION = 1;

function canonical(binding: CursorBinding): string {
  const filters = Object.keys(binding.filters)
    .sort()
    .map((k) => [k, binding.filters[k] ?? null]);
  return JSON.stringify([binding.endpoint, binding.orgId, filters]);
}

function mac(key: Uint8Array, payload: string, binding: CursorBinding): Buffer {
  return createHmac('sha256', key).update(payload).update('\n').update(canonical(binding)).digest();
}

export function encodeCursor(key: Uint8Array, position: KeysetPosition, binding: CursorBinding): string {
  const payload = Buffer.from(JSON.stringify([VERSION, position.sortUs, position.id]), 'utf8').toString('base64url');
  return `${payload}.${mac(key, payload, binding).toString('base64url')}`;
}

const INVALID = 'Invalid cursor: pass the next_cursor of the previous page of the same request unchanged';

export function decodeCursor(key: Uint8Array, cursor: string, binding: CursorBinding): KeysetPosition {
  const m = /^([A-Za-z0-9_-]{1,512})\.([A-Za-z0-9_-]{43})$/.exec(cursor);
  if (!m) throw badRequest(INVALID);
  const [, payload, signature] = m;
  // Compared as text, not as decoded bytes: the last base64url character carries two unused bits, so
  // four spellings decode to the same signature. A cursor has exactly one spelling.
  const expected = Buffer.from(mac(key, payload!, binding).toString('base64url'), 'ascii');
  const given = Buffer.from(signature!, 'ascii');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw badRequest(INVALID);
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(INVALID);
  }
  if (!Array.isArray(decoded) || decoded[0] !== VERSION || !Number.isSafeInteger(decoded[1]) || typeof decoded[2] !== 'string') {
    throw badRequest(INVALID);
  }
  return { sortUs: decoded[1] as number, id: decoded[2] as string };
}
