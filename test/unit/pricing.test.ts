import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICE, PRICES, costPicoUsd, formatUsd, parseUsd, type TokenCounts } from '../../functions/tenancy/domain/pricing';

const tokens = (inputTokens: number, outputTokens: number, cacheReadInputTokens = 0, cacheCreationInputTokens = 0): TokenCounts => ({
  inputTokens,
  outputTokens,
  cacheReadInputTokens,
  cacheCreationInputTokens,
});

const cost = (model: string, t: TokenCounts) => formatUsd(costPicoUsd(model, t));

describe('costPicoUsd + formatUsd: exact decimal cost strings', () => {
  it('prices each token kind at its own rate (offline: 0.10 in, 0.40 out, 0.01 cache read, 0.125 cache write per 1M)', () => {
    expect(costPicoUsd('offline', tokens(1, 0))).toBe(100_000n);
    expect(costPicoUsd('offline', tokens(0, 1))).toBe(400_000n);
    expect(costPicoUsd('offline', tokens(0, 0, 1))).toBe(10_000n);
    expect(costPicoUsd('offline', tokens(0, 0, 0, 1))).toBe(125_000n);
    // 1000*0.10 + 500*0.40 + 100*0.01 + 10*0.125 = 100 + 200 + 1 + 1.25 micro-dollars.
    expect(cost('offline', tokens(1000, 500, 100, 10))).toBe('0.00030225');
  });

  it('is exact where binary floating point is not', () => {
    // 3 * 0.10 / 1e6 is 3.0000000000000004e-7 as a float.
    expect(cost('offline', tokens(3, 0))).toBe('0.0000003');
    expect(cost('anthropic.claude-sonnet-4-20250514-v1:0', tokens(1_000_000, 0))).toBe('3.00');
    expect(cost('anthropic.claude-sonnet-4-20250514-v1:0', tokens(0, 123_456_789))).toBe('1851.851835');
    expect(cost('anthropic.claude-sonnet-4-20250514-v1:0', tokens(7, 11, 13, 17))).toBe('0.00025365');
    expect(cost('amazon.nova-lite-v1:0', tokens(1, 1, 1, 1))).toBe('0.000000375');
  });

  it('charges nothing for a model without a listed price, and nothing for no tokens', () => {
    expect(PRICES['my-self-hosted-llama']).toBeUndefined();
    expect(DEFAULT_PRICE).toEqual({ input: '0', output: '0', cacheRead: '0', cacheWrite: '0' });
    expect(cost('my-self-hosted-llama', tokens(1000, 1000, 1000, 1000))).toBe('0.00');
    expect(cost('offline', tokens(0, 0))).toBe('0.00');
  });

  it('lists every price as a decimal with at most six places, so the pico-dollar arithmetic stays exact', () => {
    for (const price of Object.values(PRICES)) for (const v of Object.values(price)) expect(v).toMatch(/^\d+(\.\d{1,6})?$/);
  });
});

describe('formatUsd', () => {
  it('writes 12 fractional digits trimmed of trailing zeros, at least two', () => {
    expect(formatUsd(0n)).toBe('0.00');
    expect(formatUsd(1n)).toBe('0.000000000001');
    expect(formatUsd(10n ** 12n)).toBe('1.00');
    expect(formatUsd(1_500_000_000_000n)).toBe('1.50');
    expect(formatUsd(1_230_000_000_000n)).toBe('1.23');
    expect(formatUsd(123_456_789_000_000n)).toBe('123.456789');
    expect(formatUsd(-500_000_000_000n)).toBe('-0.50');
    expect(formatUsd(-1n)).toBe('-0.000000000001');
  });
});

describe('parseUsd', () => {
  it('reads decimal USD strings into pico-dollars', () => {
    expect(parseUsd('10')).toBe(10n * 10n ** 12n);
    expect(parseUsd('0.000001')).toBe(1_000_000n);
    expect(parseUsd('1.5')).toBe(1_500_000_000_000n);
    expect(parseUsd('0.000000000001')).toBe(1n);
    expect(parseUsd('999999999.999999999999')).toBe(999_999_999_999_999_999_999n);
  });

  it('refuses anything else', () => {
    for (const bad of ['', '-1', '+1', '1e3', '1.', '.5', ' 1', '1 ', '1,5', '0x10', '0.0000000000001', '1000000000', 'NaN']) {
      expect(parseUsd(bad), bad).toBeUndefined();
    }
  });

  it('round-trips with formatUsd', () => {
    for (const v of ['0.00', '1.50', '0.00030225', '1851.851835', '0.000000000001']) expect(formatUsd(parseUsd(v)!)).toBe(v);
  });
});
