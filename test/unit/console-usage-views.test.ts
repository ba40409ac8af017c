/**
 * The console's usage grouping and CSV: cost added exactly as decimal strings, days kept as answered,
 * apps and models summed over the range and named, and a CSV a spreadsheet reads as text.
 */
import { describe, expect, it } from 'vitest';
import { addUsd, groupUsage, type UsageDetail, usageCsv } from '../../console/src/usage-views';

const totals = (calls: number, costUsd: string) => ({
  calls,
  inputTokens: calls * 10,
  outputTokens: calls * 20,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
  costUsd,
});

const usage: UsageDetail = {
  from: '2026-11-01',
  to: '2026-11-02',
  asOf: '2026-11-02T10:00:00.000Z',
  totals: totals(4, '0.3000003'),
  days: [
    {
      date: '2026-11-01',
      totals: totals(3, '0.3000001'),
      byApp: [
        { appId: 'a1', model: 'm-small', ...totals(2, '0.1') },
        { appId: 'a2', model: 'm-large', ...totals(1, '0.2000001') },
      ],
    },
    { date: '2026-11-02', totals: totals(1, '0.0000002'), byApp: [{ appId: 'a1', model: 'm-large', ...totals(1, '0.0000002') }] },
  ],
};

describe('console usage views', () => {
  it('adds decimal cost exactly', () => {
    expect(addUsd('0.1', '0.2')).toBe('0.3');
    expect(addUsd('0', '0.0000046')).toBe('0.0000046');
    expect(addUsd('12.5', '0.75')).toBe('13.25');
    expect(addUsd('0', '0')).toBe('0');
  });

  it('groups by day as answered, and by app or model summed over the range, most calls first', () => {
    expect(groupUsage(usage, 'day', new Map()).map((g) => [g.label, g.totals.calls])).toEqual([
      ['2026-11-01', 3],
      ['2026-11-02', 1],
    ]);
    const byApp = groupUsage(usage, 'app', new Map([['a1', 'Parcel desk']]));
    expect(byApp.map((g) => [g.label, g.totals.calls, g.totals.costUsd])).toEqual([
      ['Parcel desk', 3, '0.1000002'],
      ['a2', 1, '0.2000001'],
    ]);
    expect(groupUsage(usage, 'model', new Map()).map((g) => [g.label, g.totals.calls, g.totals.inputTokens])).toEqual([
      ['m-large', 2, 20],
      ['m-small', 2, 20],
    ]);
  });

  it('writes the CSV of a table: a header, one line per group, quoted and formula-safe labels', () => {
    const csv = usageCsv('App', groupUsage(usage, 'app', new Map([['a1', '=HYPERLINK("x"), inc']])));
    expect(csv.split('\r\n')).toEqual([
      'App,Calls,Input tokens,Output tokens,Cache read tokens,Cache write tokens,Cost (USD)',
      `"'=HYPERLINK(""x""), inc",3,30,60,0,0,0.1000002`,
      'a2,1,10,20,0,0,0.2000001',
      '',
    ]);
  });
});
