import { describe, expect, it } from 'vitest';
import { checkUnknownQueryParams, UNKNOWN_QUERY_REJECTED_FROM_US } from '../../functions/export/domain/query-policy';
import { rejection } from '../support/domain-error';

const at = (iso: string) => Date.parse(iso) * 1000;

describe('checkUnknownQueryParams', () => {
  const allowed = ['limit', 'cursor', 'since'];

  it('switches to rejection at exactly 2026-10-10T00:00:00Z', () => {
    expect(UNKNOWN_QUERY_REJECTED_FROM_US).toBe(at('2026-10-10T00:00:00.000Z'));
  });

  it('passes known parameters on both sides of the date with no headers', () => {
    for (const now of [at('2026-10-09T12:00:00Z'), at('2026-10-11T12:00:00Z')]) {
      expect(checkUnknownQueryParams(['limit', 'since'], allowed, now)).toEqual({ headers: {} });
      expect(checkUnknownQueryParams([], allowed, now)).toEqual({ headers: {} });
    }
  });

  it('before the date: succeeds and names the unknown parameters in Warning and X-Svc-Unknown-Query-Params', () => {
    const lastMicro = UNKNOWN_QUERY_REJECTED_FROM_US - 1;
    for (const now of [at('2026-01-01T00:00:00Z'), at('2026-10-09T23:59:59.999Z'), lastMicro]) {
      const { headers } = checkUnknownQueryParams(['limit', 'created_after', 'foo'], allowed, now);
      expect(headers['X-Svc-Unknown-Query-Params']).toBe('created_after,foo');
      expect(headers.Warning).toMatch(/^299 - ".*"$/);
      expect(headers.Warning).toContain('created_after');
      expect(headers.Warning).toContain('foo');
      expect(headers.Warning).not.toContain('limit');
    }
  });

  it('percent-encodes client-chosen names so the headers stay printable ASCII', () => {
    const { headers } = checkUnknownQueryParams(['a\nb', 'say"hi"', 'café', '😀', 'plain_name'], allowed, at('2026-10-01T00:00:00Z'));
    expect(headers['X-Svc-Unknown-Query-Params']).toBe('a%0Ab,say%22hi%22,caf%C3%A9,%F0%9F%98%80,plain_name');
    for (const value of Object.values(headers)) expect(value).toMatch(/^[\x20-\x7e]+$/);
    // The Warning text is one quoted-string: no unescaped quote inside it.
    expect(headers.Warning!.slice(7, -1)).not.toContain('"');
  });

  it('on and after the date: a bad_request naming every unknown parameter', () => {
    for (const now of [UNKNOWN_QUERY_REJECTED_FROM_US, UNKNOWN_QUERY_REJECTED_FROM_US + 1, at('2027-06-01T00:00:00Z')]) {
      const one = rejection(() => checkUnknownQueryParams(['foo'], allowed, now));
      expect(one.code).toBe('bad_request');
      expect(one.message).toBe('Unrecognized query parameter: foo');
      const two = rejection(() => checkUnknownQueryParams(['limit', 'foo', 'bar'], allowed, now));
      expect(two.message).toBe('Unrecognized query parameters: foo, bar');
    }
  });

  it('treats every name as unknown on a route that takes no parameters', () => {
    expect(rejection(() => checkUnknownQueryParams(['limit'], [], at('2026-11-01T00:00:00Z'))).code).toBe('bad_request');
  });
});
