/**
 * The usage buckets' pure rules: UTC hour and day keys, bucket ids that no name can break, exact
 * decimal cost sums, and (fast-check, fixed seed) hour buckets summed into day buckets that equal a
 * naive sum over random rows spread across hour and day boundaries.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HOUR_US,
  bucketId,
  dayBucketsOf,
  dayOf,
  daysBetween,
  hourBucketsOf,
  hourOf,
  hourStartOf,
  isDate,
  nextDay,
  previousDay,
  sumTotals,
  usdToPico,
  ZERO_TOTALS,
  type UsageTotals,
} from '../../functions/conversations/domain/usage-buckets';
import type { UsageRow } from '../../functions/conversations/domain/usage';
import { formatUsd } from '../../functions/tenancy/domain/pricing';

const us = (iso: string) => Date.parse(iso) * 1000;
const T0 = us('2026-02-27T22:00:00.000Z');

const costArb = fc.bigInt({ min: 0n, max: 5_000_000_000_000n }).map(formatUsd);
const rowArb = fc.record({
  offsetUs: fc.integer({ min: 0, max: 4 * 24 * HOUR_US }),
  appId: fc.constantFrom('app-a', 'app-b', 'app#c'),
  model: fc.constantFrom('offline', 'amazon.nova-pro-v1:0', 'my/model#1'),
  inputTokens: fc.nat(100_000),
  outputTokens: fc.nat(100_000),
  cacheReadInputTokens: fc.nat(1000),
  cacheCreationInputTokens: fc.nat(1000),
  costUsd: costArb,
});

type RowSpec = typeof rowArb extends fc.Arbitrary<infer T> ? T : never;

function toRows(specs: readonly RowSpec[]): UsageRow[] {
  return specs.map((s, i) => {
    const { offsetUs, ...rest } = s;
    return { ...rest, id: i + 1, orgId: 'org', sessionId: null, consumerId: null, source: 'chat', createdAtUs: T0 + offsetUs };
  });
}

/** The naive truth: the totals of the rows that `keep` selects, with the cost summed as BigInt. */
function naive(rows: readonly UsageRow[], keep: (r: UsageRow) => boolean): UsageTotals {
  const sel = rows.filter(keep);
  const sum = (f: (r: UsageRow) => number) => sel.reduce((a, r) => a + f(r), 0);
  return {
    calls: sel.length,
    inputTokens: sum((r) => r.inputTokens),
    outputTokens: sum((r) => r.outputTokens),
    cacheReadInputTokens: sum((r) => r.cacheReadInputTokens),
    cacheCreationInputTokens: sum((r) => r.cacheCreationInputTokens),
    costUsd: formatUsd(sel.reduce((a, r) => a + usdToPico(r.costUsd), 0n)),
  };
}

describe('usage bucket keys', () => {
  it('names the UTC hour and day of an instant, the edges included', () => {
    expect(hourOf(us('2026-02-28T23:59:59.999Z'))).toBe('2026-02-28T23');
    expect(hourOf(us('2026-03-01T00:00:00.000Z'))).toBe('2026-03-01T00');
    expect(dayOf(us('2026-02-28T23:59:59.999Z'))).toBe('2026-02-28');
    expect(hourStartOf(us('2026-02-28T23:59:59.999Z') + 999)).toBe(us('2026-02-28T23:00:00.000Z'));
    expect(nextDay('2026-02-28')).toBe('2026-03-01');
    expect(nextDay('2028-02-28')).toBe('2028-02-29');
    expect(previousDay('2027-01-01')).toBe('2026-12-31');
    expect(daysBetween('2026-12-30', '2027-01-02')).toEqual(['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02']);
    expect(daysBetween('2026-12-30', '2026-12-29')).toEqual([]);
  });

  it('accepts only real calendar dates written YYYY-MM-DD', () => {
    for (const ok of ['2026-02-28', '2028-02-29', '1999-12-31']) expect(isDate(ok), ok).toBe(true);
    for (const bad of ['2026-02-29', '2026-13-01', '2026-1-01', '2026-02-28T00', '', '20260228', '2026-02-30']) expect(isDate(bad), bad).toBe(false);
  });

  it('keeps app and model names apart whatever they hold, and sorts ids by period first', () => {
    const a = bucketId({ period: '2026-03-01T05', appId: 'a#b', model: 'c' });
    const b = bucketId({ period: '2026-03-01T05', appId: 'a', model: 'b#c' });
    expect(a).not.toBe(b);
    expect(a.startsWith('2026-03-01T05#')).toBe(true);
    expect(bucketId({ period: '2026-03-01T04', appId: '~', model: '~' }) < bucketId({ period: '2026-03-01T05', appId: '', model: '' })).toBe(true);
  });
});

describe('exact decimal sums', () => {
  it('adds costs exactly where floats do not, and formats the sum once', () => {
    const t = (costUsd: string): UsageTotals => ({ ...ZERO_TOTALS, calls: 1, costUsd });
    expect(sumTotals([t('0.1'), t('0.2')]).costUsd).toBe('0.30');
    expect(sumTotals([t('0.000000000001'), t('0.999999999999')]).costUsd).toBe('1.00');
    expect(sumTotals([t('123456789012.5'), t('0.000000000003')]).costUsd).toBe('123456789012.500000000003');
    expect(sumTotals([]).costUsd).toBe('0.00');
    expect(sumTotals(Array.from({ length: 10 }, () => t('0.1')))).toEqual({ ...ZERO_TOTALS, calls: 10, costUsd: '1.00' });
  });

  it('refuses a cost that is not a decimal amount', () => {
    for (const bad of ['1e-7', '0.1234567890123', '', '.5', 'NaN', '1,5']) expect(() => usdToPico(bad), bad).toThrow();
  });

  it('equals a BigInt sum of random costs (seeded)', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 0n, max: 10n ** 15n }), { maxLength: 50 }), (picos) => {
        const total = sumTotals(picos.map((p) => ({ ...ZERO_TOTALS, costUsd: formatUsd(p) })));
        expect(usdToPico(total.costUsd)).toBe(picos.reduce((a, b) => a + b, 0n));
      }),
      { seed: 20261128, numRuns: 200 },
    );
  });
});

describe('hour buckets summed into day buckets', () => {
  it('equal a naive sum over random rows across hour and day boundaries, per period, app and model (seeded)', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 80 }), (specs) => {
        const rows = toRows(specs);
        const hours = hourBucketsOf(rows);
        for (const b of hours) {
          const { period, appId, model, ...totals } = b;
          expect(totals).toEqual(naive(rows, (r) => hourOf(r.createdAtUs) === period && r.appId === appId && r.model === model));
        }
        const days = dayBucketsOf(hours);
        expect(days).toEqual(dayBucketsOf(hourBucketsOf(rows).reverse()));
        for (const b of days) {
          const { period, appId, model, ...totals } = b;
          expect(totals).toEqual(naive(rows, (r) => dayOf(r.createdAtUs) === period && r.appId === appId && r.model === model));
        }
        // No empty bucket, and every row in exactly one.
        expect(hours.every((b) => b.calls > 0)).toBe(true);
        expect(sumTotals(days)).toEqual(naive(rows, () => true));
        expect(new Set(hours.map(bucketId)).size).toBe(hours.length);
      }),
      { seed: 20261128, numRuns: 200 },
    );
  });
});
