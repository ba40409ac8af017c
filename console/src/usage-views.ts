/**
 * The console usage answer grouped the three ways the pages show it (by day, app or model), and the CSV
 * of what a table shows. The API answers days with their per-app-and-model totals; grouping by app or
 * model adds those up here, with exact decimal cost (the API's cost is a decimal string).
 */
import type { UsageTotals, UsageView } from './api-client';

export interface UsageByAppAndModel extends UsageTotals {
  readonly appId: string;
  readonly model: string;
}

/** The console usage answer with each day's split by app and model. */
export interface UsageDetail extends UsageView {
  readonly days: readonly { readonly date: string; readonly totals: UsageTotals; readonly byApp: readonly UsageByAppAndModel[] }[];
}

export type UsageGrouping = 'day' | 'app' | 'model';
export type UsageMetric = 'calls' | 'tokens' | 'cost';

export const GROUPINGS: readonly { readonly value: UsageGrouping; readonly label: string }[] = [
  { value: 'day', label: 'Day' },
  { value: 'app', label: 'App' },
  { value: 'model', label: 'Model' },
];

export const METRICS: readonly { readonly value: UsageMetric; readonly label: string }[] = [
  { value: 'calls', label: 'Calls' },
  { value: 'tokens', label: 'Tokens (input and output)' },
  { value: 'cost', label: 'Cost (USD)' },
];

export interface UsageGroup {
  readonly key: string;
  readonly label: string;
  readonly totals: UsageTotals;
}

const ZERO: UsageTotals = { calls: 0, inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, costUsd: '0' };

/** `usage` by day (every day of the range, as answered), by app (named by `appNames`) or by model, largest first. */
export function groupUsage(usage: UsageDetail, by: UsageGrouping, appNames: ReadonlyMap<string, string>): UsageGroup[] {
  if (by === 'day') return usage.days.map((d) => ({ key: d.date, label: d.date, totals: d.totals }));
  const groups = new Map<string, UsageTotals>();
  for (const day of usage.days)
    for (const row of day.byApp) {
      const key = by === 'app' ? row.appId : row.model;
      groups.set(key, addTotals(groups.get(key) ?? ZERO, row));
    }
  return [...groups]
    .map(([key, totals]) => ({ key, label: by === 'app' ? (appNames.get(key) ?? key) : key, totals }))
    .sort((a, b) => b.totals.calls - a.totals.calls || a.label.localeCompare(b.label));
}

export function addTotals(a: UsageTotals, b: UsageTotals): UsageTotals {
  return {
    calls: a.calls + b.calls,
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadInputTokens: a.cacheReadInputTokens + b.cacheReadInputTokens,
    cacheCreationInputTokens: a.cacheCreationInputTokens + b.cacheCreationInputTokens,
    costUsd: addUsd(a.costUsd, b.costUsd),
  };
}

export const metricOf = (totals: UsageTotals, metric: UsageMetric): number =>
  metric === 'calls' ? totals.calls : metric === 'tokens' ? totals.inputTokens + totals.outputTokens : Number(totals.costUsd);

/** The sum of two non-negative decimal strings, exactly, with as many decimals as the longer one. */
export function addUsd(a: string, b: string): string {
  const digits = Math.max(decimalsOf(a), decimalsOf(b));
  const scaled = (s: string) => {
    const [whole = '0', fraction = ''] = s.split('.');
    return BigInt(whole + fraction.padEnd(digits, '0'));
  };
  const sum = (scaled(a) + scaled(b)).toString().padStart(digits + 1, '0');
  return digits === 0 ? sum : `${sum.slice(0, -digits)}.${sum.slice(-digits)}`;
}

const decimalsOf = (s: string) => s.split('.')[1]?.length ?? 0;

export const USAGE_COLUMNS = ['Calls', 'Input tokens', 'Output tokens', 'Cache read tokens', 'Cache write tokens', 'Cost (USD)'] as const;

export const columnsOf = (t: UsageTotals): readonly (number | string)[] => [
  t.calls,
  t.inputTokens,
  t.outputTokens,
  t.cacheReadInputTokens,
  t.cacheCreationInputTokens,
  t.costUsd,
];

/** The CSV of a table of groups: a header, then one line per group, fields quoted where they must be. */
export function usageCsv(groupLabel: string, groups: readonly UsageGroup[]): string {
  const line = (fields: readonly (string | number)[]) => fields.map((f) => csvField(String(f))).join(',');
  const lines = [line([groupLabel, ...USAGE_COLUMNS]), ...groups.map((g) => line([g.label, ...columnsOf(g.totals)]))];
  return `${lines.join('\r\n')}\r\n`;
}

// A leading =, +, - or @ would make a spreadsheet read an app's name as a formula.
const csvField = (s: string) => {
  const safe = /^[=+\-@]/.test(s) && Number.isNaN(Number(s)) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};
