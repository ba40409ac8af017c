import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  parseIncludeParam,
  parseLimit,
  parseTimestampParam,
  parseTokenParam,
  parseUuidParam,
} from '../../functions/export/domain/export-params';
import { rejection } from '../support/domain-error';

const us = (iso: string) => Date.parse(iso) * 1000;

describe('parseLimit', () => {
  it('defaults to 50 with a maximum of 100', () => {
    expect(DEFAULT_LIMIT).toBe(50);
    expect(MAX_LIMIT).toBe(100);
    expect(parseLimit(undefined)).toEqual({ limit: 50, headers: {} });
  });

  it.each([
    ['1', 1],
    ['7', 7],
    ['50', 50],
    ['99', 99],
    ['100', 100],
    ['007', 7],
    ['0100', 100],
  ])('takes %s as %i with no headers', (raw, limit) => {
    expect(parseLimit(raw)).toEqual({ limit, headers: {} });
  });

  it.each([
    ['101', '101'],
    ['150', '150'],
    ['1000', '1000'],
    ['a 20-digit integer', '99999999999999999999'],
    ['a 301-digit integer', `1${'0'.repeat(300)}`],
    ['a 1000-digit integer', '9'.repeat(1000)],
  ])('clamps %s to 100 with Warning and X-Svc-Limit-Clamped', (_label, raw) => {
    const out = parseLimit(raw);
    expect(out.limit).toBe(100);
    expect(out.headers['X-Svc-Limit-Clamped']).toBe(`requested=${raw},clamped_to=100`);
    expect(out.headers.Warning).toMatch(/^299 - "[^"]*100[^"]*"$/);
    expect(Object.keys(out.headers).sort()).toEqual(['Warning', 'X-Svc-Limit-Clamped']);
  });

  it('names the requested value without leading zeros', () => {
    expect(parseLimit('000150').headers['X-Svc-Limit-Clamped']).toBe('requested=150,clamped_to=100');
  });

  it.each(['abc', '', '0', '00', '-1', '-0', '1.5', '1.0', '1e2', '+5', ' 5', '5 ', '0x10', '１０', 'Infinity', 'NaN'])(
    'rejects %j with bad_request',
    (raw) => {
      const err = rejection(() => parseLimit(raw));
      expect(err.code).toBe('bad_request');
      expect(err.message).toContain('limit');
    },
  );
});

describe('parseTimestampParam', () => {
  const message = (name: string) => `Invalid ${name}: must be an ISO 8601 timestamp (e.g. 2026-01-31T12:00:00.000Z)`;

  it('is undefined when the parameter is absent', () => {
    expect(parseTimestampParam('since', undefined)).toBeUndefined();
  });

  it('reads Z, offsets and fractions of 1 to 9 digits, flooring below the millisecond', () => {
    expect(parseTimestampParam('since', '2026-01-31T12:00:00Z')).toBe(us('2026-01-31T12:00:00.000Z'));
    expect(parseTimestampParam('since', '2026-01-31T14:00:00+02:00')).toBe(us('2026-01-31T12:00:00.000Z'));
    expect(parseTimestampParam('since', '2026-01-31T06:30:00-05:30')).toBe(us('2026-01-31T12:00:00.000Z'));
    expect(parseTimestampParam('since', '2026-01-31T12:00:00.1Z')).toBe(us('2026-01-31T12:00:00.100Z'));
    expect(parseTimestampParam('since', '2026-01-31T12:00:00.123999Z')).toBe(us('2026-01-31T12:00:00.123Z'));
    expect(parseTimestampParam('since', '2026-01-31T12:00:00.123999999Z')).toBe(us('2026-01-31T12:00:00.123Z'));
    expect(parseTimestampParam('since', '2026-01-31T14:00:00.999999+02:00')).toBe(us('2026-01-31T12:00:00.999Z'));
    // Floored values are whole milliseconds: a microsecond-precise client value never sneaks past a row.
    expect((parseTimestampParam('since', '2026-01-31T12:00:00.123456Z') ?? 1) % 1000).toBe(0);
  });

  it.each([
    '',
    'now',
    '2026-01-31',
    '2026-01-31T12:00:00',
    '2026-01-31T12:00Z',
    '2026-01-31 12:00:00Z',
    '2026-01-31t12:00:00z',
    '2026-02-29T00:00:00Z',
    '2026-01-31T24:00:00Z',
    '2026-01-31T12:60:00Z',
    '2026-01-31T12:00:00.Z',
    '2026-01-31T12:00:00.1234567891Z',
    '2026-01-31T12:00:00+2:00',
    '2026-01-31T12:00:00+0200',
    '2026-01-31T12:00:00+24:00',
    '1769860800000',
  ])('rejects %j with the spec’s message, naming the parameter', (raw) => {
    for (const name of ['updated_after', 'started_after', 'started_before', 'since']) {
      const err = rejection(() => parseTimestampParam(name, raw));
      expect(err.code).toBe('bad_request');
      expect(err.message).toBe(message(name));
    }
  });
});

describe('parseUuidParam', () => {
  const message = 'Invalid app_id: must be a UUID (e.g. 123e4567-e89b-12d3-a456-426614174000)';

  it('accepts any well-formed UUID, lower-casing it', () => {
    expect(parseUuidParam('app_id', undefined)).toBeUndefined();
    expect(parseUuidParam('app_id', '123e4567-e89b-12d3-a456-426614174000')).toBe('123e4567-e89b-12d3-a456-426614174000');
    expect(parseUuidParam('app_id', 'ABCDEF01-2345-6789-ABCD-EF0123456789')).toBe('abcdef01-2345-6789-abcd-ef0123456789');
  });

  it.each([
    '',
    'abc',
    '123e4567e89b12d3a456426614174000',
    '{123e4567-e89b-12d3-a456-426614174000}',
    '123e4567-e89b-12d3-a456-42661417400g',
    ' 123e4567-e89b-12d3-a456-426614174000',
  ])('rejects %j with the spec’s message', (raw) => {
    const err = rejection(() => parseUuidParam('app_id', raw));
    expect(err.code).toBe('bad_request');
    expect(err.message).toBe(message);
  });
});

describe('parseTokenParam (cause)', () => {
  it('passes any well-formed value through unchanged, known or not', () => {
    // `cause` is an open string: any future value must be filterable, whatever its characters.
    for (const cause of [
      'app_deleted',
      'consumer_deleted',
      'retention_expiry',
      'support_erasure',
      'unknown',
      'a_future_cause',
      'app',
      'app deleted',
      'a/b',
      'x'.repeat(128),
    ]) {
      expect(parseTokenParam('cause', cause)).toBe(cause);
    }
    expect(parseTokenParam('cause', undefined)).toBeUndefined();
  });

  it.each(['', ' ', 'a\u0000b', 'line\nbreak', 'x'.repeat(129)])('rejects %j with bad_request', (raw) => {
    expect(rejection(() => parseTokenParam('cause', raw)).code).toBe('bad_request');
  });
});

describe('parseIncludeParam', () => {
  it('reads a comma-separated subset of the allowed values', () => {
    expect(parseIncludeParam(undefined, ['tool_details'])).toEqual(new Set());
    expect(parseIncludeParam('tool_details', ['tool_details'])).toEqual(new Set(['tool_details']));
    expect(parseIncludeParam('tool_details,tool_details', ['tool_details'])).toEqual(new Set(['tool_details']));
  });

  it.each(['', ',', 'bogus', 'tool_details,', 'tool_details,bogus', 'TOOL_DETAILS'])('rejects %j with bad_request', (raw) => {
    expect(rejection(() => parseIncludeParam(raw, ['tool_details'])).code).toBe('bad_request');
  });
});
