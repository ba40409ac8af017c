/**
 * Time on the platform is stored as integer microseconds since the Unix epoch (the spec's stored
 * precision) and shown as ISO 8601 UTC with exactly three fractional digits, floored, never rounded up.
 */

/** Microseconds since the epoch. 2^53 µs is year 2255: a plain number is exact. */
export type Micros = number;

export const MICROS_PER_MS = 1000;

export function microsToIso(us: Micros): string {
  return new Date(Math.floor(us / MICROS_PER_MS)).toISOString();
}

export function msToMicros(ms: number): Micros {
  return Math.floor(ms) * MICROS_PER_MS;
}

export function microsToMs(us: Micros): number {
  return Math.floor(us / MICROS_PER_MS);
}

/** The strict ISO 8601 form the API accepts: date, time, optional fraction, and `Z` or an offset. */
const ISO_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Parses an ISO 8601 timestamp into microseconds, flooring the part below one millisecond (the spec:
 * a client value `.123999Z` equals `.123Z`). Returns undefined for anything malformed.
 */
export function parseIsoToMicros(value: string): Micros | undefined {
  const m = ISO_TIMESTAMP.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac = '', zone] = m;
  const ms = Number(`${frac}000`.slice(0, 3));
  const base = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  const check = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
  // Reject impossible calendar values (2026-02-30, 25:00) that Date.UTC would silently roll over.
  if (
    check.getUTCFullYear() !== Number(y) ||
    check.getUTCMonth() !== Number(mo) - 1 ||
    check.getUTCDate() !== Number(d) ||
    check.getUTCHours() !== Number(h) ||
    check.getUTCMinutes() !== Number(mi) ||
    check.getUTCSeconds() !== Number(s)
  ) {
    return undefined;
  }
  let offsetMin = 0;
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return undefined;
    offsetMin = sign * (oh * 60 + om);
  }
  return msToMicros(base - offsetMin * 60_000);
}
