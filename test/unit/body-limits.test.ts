import { describe, expect, it } from 'vitest';
import { bodyTooLargeMessage, MAX_CHAT_REQUEST_BYTES } from '../../functions/kernel/domain/body-limits';
import { ROUTES } from '../../functions/routes';
import { decimalAbove } from '../../lib/constructs/decimal-regex';

describe('decimalAbove (the Content-Length comparison of the WAF body rule)', () => {
  const matches = (n: number, value: string) => new RegExp(decimalAbove(n)).test(value);

  it('matches exactly the integers above n, for every n and value up to 1,200', () => {
    for (let n = 0; n <= 1_200; n += n < 120 ? 1 : 7) {
      for (let v = 0; v <= 1_200; v++) expect(matches(n, String(v)), `${v} > ${n}`).toBe(v > n);
    }
  });

  it('is exact around the chat request limit, with leading zeros, and refuses what is no number', () => {
    const n = MAX_CHAT_REQUEST_BYTES;
    for (const v of [0, 1, n - 10, n - 1, n]) expect(matches(n, String(v)), String(v)).toBe(false);
    for (const v of [n + 1, n + 2, n + 1_000, 6_000_000, 10_485_760, 99_999_999, 1e12]) expect(matches(n, String(v)), String(v)).toBe(true);
    expect(matches(n, `000${n}`)).toBe(false);
    expect(matches(n, `00${n + 1}`)).toBe(true);
    for (const v of ['', 'abc', '-6000000', '6000000 ', '6e6', '5242881.5']) expect(matches(n, v), v).toBe(false);
    // WAF's regex limits: 512 characters, and no lookaround or backreference.
    expect(decimalAbove(n).length).toBeLessThan(512);
    expect(decimalAbove(n)).not.toMatch(/\(\?[=!<]|\\[1-9]/);
  });

  it('refuses what is not a non-negative integer', () => {
    expect(() => decimalAbove(-1)).toThrow();
    expect(() => decimalAbove(1.5)).toThrow();
  });
});

describe('route body limits', () => {
  it('the chat completions route declares its handler limit, and the message names it', () => {
    expect(ROUTES.find((r) => r.id === 'chatCompletionsCreate')!.maxBodyBytes).toBe(MAX_CHAT_REQUEST_BYTES);
    expect(bodyTooLargeMessage(MAX_CHAT_REQUEST_BYTES)).toBe('Request body too large: at most 5242880 bytes (5 MiB)');
    expect(bodyTooLargeMessage(1000)).toBe('Request body too large: at most 1000 bytes');
  });

  it('in an area whose WAF refuses large bodies, every API route that takes a body declares its limit', () => {
    // The area's WAF rule uses the largest declared limit: a route without one would be cut at it unawares.
    const onApi = ROUTES.filter((r) => (r.origin ?? 'api') === 'api');
    const limitedAreas = new Set(onApi.filter((r) => r.maxBodyBytes !== undefined).map((r) => r.area));
    expect(onApi.filter((r) => limitedAreas.has(r.area) && r.body !== 'none' && r.maxBodyBytes === undefined).map((r) => r.id)).toEqual([]);
  });
});
