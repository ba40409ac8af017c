/**
 * Usage totals per period (a UTC hour or a UTC day), app and model: the buckets the usage rollup job
 * recomputes from the usage rows and the usage view reads instead of the rows. Costs are summed exactly
 * in integer pico-dollars and kept as decimal strings; a float never touches them.
 */
import { formatUsd } from '../../tenancy/domain/pricing';
import type { Micros } from '../../kernel/domain/time';
import type { UsageRow } from './usage';

export const HOUR_US = 3_600_000_000;
export const DAY_US = 24 * HOUR_US;

/** What a bucket counts: model calls, tokens by kind and the cost in USD (a decimal string). */
export interface UsageTotals {
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadInputTokens: number;
  readonly cacheCreationInputTokens: number;
  readonly costUsd: string;
}

/** The totals of one app and model over one period: `YYYY-MM-DDTHH` (an hour) or `YYYY-MM-DD` (a day), UTC. */
export interface UsageBucket extends UsageTotals {
  readonly period: string;
  readonly appId: string;
  readonly model: string;
}

export const ZERO_TOTALS: UsageTotals = {
  calls: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
  costUsd: formatUsd(0n),
};

const USD = /^(-?)(\d+)(?:\.(\d{1,12}))?$/;

/** A decimal USD string (any number of whole digits, up to 12 fractional) as pico-dollars, exactly. */
export function usdToPico(value: string): bigint {
  const m = USD.exec(value);
  if (!m) throw new Error(`not a decimal USD amount: ${JSON.stringify(value)}`);
  const pico = BigInt(m[2]!) * 1_000_000_000_000n + BigInt((m[3] ?? '').padEnd(12, '0'));
  return m[1] ? -pico : pico;
}

/** The sum of any number of totals: token counts as integers, the cost as pico-dollars, formatted once. */
export function sumTotals(parts: Iterable<UsageTotals>): UsageTotals {
  let calls = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let cacheReadInputTokens = 0;
  let cacheCreationInputTokens = 0;
  let pico = 0n;
  for (const t of parts) {
    calls += t.calls;
    inputTokens += t.inputTokens;
    outputTokens += t.outputTokens;
    cacheReadInputTokens += t.cacheReadInputTokens;
    cacheCreationInputTokens += t.cacheCreationInputTokens;
    pico += usdToPico(t.costUsd);
  }
  return { calls, inputTokens, outputTokens, cacheReadInputTokens, cacheCreationInputTokens, costUsd: formatUsd(pico) };
}

/** One usage row as totals: one call. */
export function rowTotals(row: UsageRow): UsageTotals {
  return {
    calls: 1,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    cacheReadInputTokens: row.cacheReadInputTokens,
    cacheCreationInputTokens: row.cacheCreationInputTokens,
    costUsd: row.costUsd,
  };
}

/** The totals part of a bucket (without its period, app and model). */
export function totalsOf(b: UsageTotals): UsageTotals {
  return {
    calls: b.calls,
    inputTokens: b.inputTokens,
    outputTokens: b.outputTokens,
    cacheReadInputTokens: b.cacheReadInputTokens,
    cacheCreationInputTokens: b.cacheCreationInputTokens,
    costUsd: b.costUsd,
  };
}

export const hourStartOf = (us: Micros): Micros => us - (((us % HOUR_US) + HOUR_US) % HOUR_US);

/** `YYYY-MM-DDTHH`, the UTC hour that holds `us`. */
export const hourOf = (us: Micros): string => new Date(Math.floor(us / 1000)).toISOString().slice(0, 13);

/** `YYYY-MM-DD`, the UTC day that holds `us`. */
export const dayOf = (us: Micros): string => new Date(Math.floor(us / 1000)).toISOString().slice(0, 10);

/** The first microsecond of a day `YYYY-MM-DD` (UTC). */
export const dayStartUs = (date: string): Micros => Date.parse(`${date}T00:00:00.000Z`) * 1000;

/** The day after `date`. */
export const nextDay = (date: string): string => dayOf(dayStartUs(date) + DAY_US);

/** The day before `date`. */
export const previousDay = (date: string): string => dayOf(dayStartUs(date) - DAY_US);

/** The earlier and the later of two days (`YYYY-MM-DD` sorts as text in date order). */
export const earlierDay = (a: string, b: string): string => [a, b].sort()[0]!;
export const laterDay = (a: string, b: string): string => [a, b].sort()[1]!;

/** Whether `value` is a real calendar date written `YYYY-MM-DD`. */
export function isDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(dayStartUs(value)) && dayOf(dayStartUs(value)) === value;
}

/** Days from `from` to `to`, both included (empty when `from` is after `to`). */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = from; d <= to; d = nextDay(d)) days.push(d);
  return days;
}

/**
 * A bucket's identity within its org: period, app and model, the names URI-encoded so that no id or
 * model name can run into the next part. Sorts by period first.
 */
export const bucketId = (b: Pick<UsageBucket, 'period' | 'appId' | 'model'>): string =>
  `${b.period}#${encodeURIComponent(b.appId)}#${encodeURIComponent(b.model)}`;

const byId = (a: UsageBucket, b: UsageBucket) => (bucketId(a) < bucketId(b) ? -1 : bucketId(a) > bucketId(b) ? 1 : 0);

/** Groups totals by (period, app, model) into buckets, in id order; nothing for an empty group. */
function group<T>(items: Iterable<T>, keyOf: (item: T) => Omit<UsageBucket, keyof UsageTotals>, totals: (item: T) => UsageTotals): UsageBucket[] {
  const groups = new Map<string, { key: Omit<UsageBucket, keyof UsageTotals>; parts: UsageTotals[] }>();
  for (const item of items) {
    const key = keyOf(item);
    const id = bucketId(key);
    const g = groups.get(id) ?? { key, parts: [] };
    g.parts.push(totals(item));
    groups.set(id, g);
  }
  return [...groups.values()].map((g) => ({ ...g.key, ...sumTotals(g.parts) })).sort(byId);
}

/** The hour buckets of usage rows. */
export const hourBucketsOf = (rows: Iterable<UsageRow>): UsageBucket[] =>
  group(rows, (r) => ({ period: hourOf(r.createdAtUs), appId: r.appId, model: r.model }), rowTotals);

/** Buckets summed per day, app and model (hour buckets into day buckets, or day buckets again). */
export const dayBucketsOf = (buckets: Iterable<UsageBucket>): UsageBucket[] =>
  group(buckets, (b) => ({ period: b.period.slice(0, 10), appId: b.appId, model: b.model }), totalsOf);
