import { describe, expect, it } from 'vitest';
import { microsToIso, parseIsoToMicros } from '../../functions/kernel/domain/time';

const us = (iso: string) => Date.parse(iso) * 1000;

describe('parseIsoToMicros', () => {
  it('reads UTC timestamps with Z', () => {
    expect(parseIsoToMicros('2026-03-04T05:06:07Z')).toBe(us('2026-03-04T05:06:07.000Z'));
    expect(parseIsoToMicros('1970-01-01T00:00:00Z')).toBe(0);
  });

  it('applies explicit offsets in both directions', () => {
    expect(parseIsoToMicros('2026-03-04T05:06:07+02:00')).toBe(us('2026-03-04T03:06:07.000Z'));
    expect(parseIsoToMicros('2026-03-04T05:06:07-05:30')).toBe(us('2026-03-04T10:36:07.000Z'));
    expect(parseIsoToMicros('2026-03-04T00:30:00+01:00')).toBe(us('2026-03-03T23:30:00.000Z'));
    expect(parseIsoToMicros('2026-03-04T05:06:07+00:00')).toBe(parseIsoToMicros('2026-03-04T05:06:07Z'));
    expect(parseIsoToMicros('2026-03-04T05:06:07.250+14:00')).toBe(us('2026-03-03T15:06:07.250Z'));
  });

  it.each([
    ['.1', 100],
    ['.12', 120],
    ['.123', 123],
    ['.1234', 123],
    ['.12345', 123],
    ['.123456', 123],
    ['.1234567', 123],
    ['.12345678', 123],
    ['.123456789', 123],
    ['.999999999', 999],
    ['.000999', 0],
  ])('reads a fraction %s as %i ms, floored to the millisecond', (frac, ms) => {
    expect(parseIsoToMicros(`2026-03-04T05:06:07${frac}Z`)).toBe(us('2026-03-04T05:06:07.000Z') + ms * 1000);
  });

  it('floors the sub-millisecond part: .123999Z equals .123Z', () => {
    expect(parseIsoToMicros('2026-03-04T05:06:07.123999Z')).toBe(parseIsoToMicros('2026-03-04T05:06:07.123Z'));
    expect(parseIsoToMicros('2026-03-04T05:06:07.999999999Z')).toBe(us('2026-03-04T05:06:07.999Z'));
    // Flooring never carries into the next second, minute or day.
    expect(parseIsoToMicros('2026-12-31T23:59:59.9999Z')).toBe(us('2026-12-31T23:59:59.999Z'));
  });

  it('floors with an offset too', () => {
    expect(parseIsoToMicros('2026-03-04T05:06:07.123999+01:00')).toBe(us('2026-03-04T04:06:07.123Z'));
  });

  it('always returns whole milliseconds in microseconds', () => {
    for (const v of ['2026-03-04T05:06:07.123456Z', '2026-03-04T05:06:07.000001-03:00', '2026-03-04T05:06:07.5Z']) {
      expect(parseIsoToMicros(v)! % 1000).toBe(0);
    }
  });

  it('accepts real leap days and rejects impossible dates', () => {
    expect(parseIsoToMicros('2024-02-29T00:00:00Z')).toBe(us('2024-02-29T00:00:00.000Z'));
    expect(parseIsoToMicros('2000-02-29T00:00:00Z')).toBe(us('2000-02-29T00:00:00.000Z'));
    for (const v of [
      '2026-02-29T00:00:00Z',
      '1900-02-29T00:00:00Z',
      '2026-02-30T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-00-10T00:00:00Z',
      '2026-01-00T00:00:00Z',
      '2026-01-32T00:00:00Z',
      '2026-01-31T24:00:00Z',
      '2026-01-31T23:60:00Z',
      '2026-01-31T23:59:60Z',
      '2026-01-31T23:59:59+24:00',
      '2026-01-31T23:59:59+01:60',
    ]) {
      expect(parseIsoToMicros(v), v).toBeUndefined();
    }
  });

  it('rejects malformed and empty values', () => {
    for (const v of [
      '',
      ' ',
      'now',
      '2026',
      '2026-03-04',
      '2026-03-04T05:06Z',
      '2026-03-04T05:06:07',
      '2026-03-04 05:06:07Z',
      '2026-03-04t05:06:07z',
      '2026-03-04T05:06:07.Z',
      '2026-03-04T05:06:07.1234567890Z',
      '2026-03-04T05:06:07+0100',
      '2026-03-04T05:06:07+01',
      '2026-3-4T05:06:07Z',
      '+2026-03-04T05:06:07Z',
      ' 2026-03-04T05:06:07Z',
      '2026-03-04T05:06:07Z ',
      '2026-03-04T05:06:07ZZ',
      '1772600767000',
      '２０２６-03-04T05:06:07Z',
    ]) {
      expect(parseIsoToMicros(v), JSON.stringify(v)).toBeUndefined();
    }
  });
});

describe('microsToIso', () => {
  it('always shows exactly three fractional digits in UTC', () => {
    expect(microsToIso(us('2026-03-04T05:06:07.000Z'))).toBe('2026-03-04T05:06:07.000Z');
    expect(microsToIso(us('2026-03-04T05:06:07.100Z'))).toBe('2026-03-04T05:06:07.100Z');
    expect(microsToIso(0)).toBe('1970-01-01T00:00:00.000Z');
  });

  it('floors the sub-millisecond part, never rounding up', () => {
    const base = us('2026-03-04T05:06:07.123Z');
    expect(microsToIso(base + 999)).toBe('2026-03-04T05:06:07.123Z');
    expect(microsToIso(base + 500)).toBe('2026-03-04T05:06:07.123Z');
    expect(microsToIso(base + 1)).toBe('2026-03-04T05:06:07.123Z');
    // The last microsecond of a year stays in that year.
    expect(microsToIso(us('2027-01-01T00:00:00.000Z') - 1)).toBe('2026-12-31T23:59:59.999Z');
  });

  it('round-trips with parseIsoToMicros', () => {
    for (const iso of ['2026-03-04T05:06:07.123Z', '1999-12-31T23:59:59.999Z', '2026-10-10T00:00:00.000Z']) {
      expect(microsToIso(parseIsoToMicros(iso)!)).toBe(iso);
    }
    expect(microsToIso(parseIsoToMicros('2026-03-04T05:06:07.123999+02:00')!)).toBe('2026-03-04T03:06:07.123Z');
  });
});
