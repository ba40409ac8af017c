/**
 * The opaque cursor of a list kept in (time, id) order in its own partition (the audit log, an org's keys,
 * its export jobs): the last item's time and id, as base64url JSON. A cursor that does not decode to that
 * shape is a 400 `Invalid cursor`; it can only name a position inside the caller's own partition.
 */
import { badRequest } from './errors';

export const encodePositionCursor = (us: number, id: string): string => Buffer.from(JSON.stringify([us, id]), 'utf8').toString('base64url');

export function decodePositionCursor(cursor: string, maxIdLength = Number.POSITIVE_INFINITY): { readonly us: number; readonly id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      Number.isSafeInteger(value[0]) &&
      value[0] >= 0 &&
      typeof value[1] === 'string' &&
      value[1].length <= maxIdLength
    ) {
      return { us: value[0], id: value[1] };
    }
  } catch {
    // falls through to the refusal below
  }
  throw badRequest('Invalid cursor');
}
