import { badRequest } from '../../kernel/domain/errors';
import { microsToIso } from '../../kernel/domain/time';
import {
  DAY_US,
  dayBucketsOf,
  dayStartUs,
  daysBetween,
  earlierDay,
  isDate,
  laterDay,
  previousDay,
  sumTotals,
  totalsOf,
  type UsageBucket,
  type UsageTotals,
} from '../domain/usage-buckets';
import type { UsageRollupPorts } from './usage-rollup-ports';

/** The longest range one view may ask for, in days (both ends included). */
export const MAX_USAGE_RANGE_DAYS = 400;

export interface UsageTotalsQuery {
  readonly orgId: string;
  /** First day, `YYYY-MM-DD` (UTC), included. */
  readonly from: string;
  /** Last day, `YYYY-MM-DD` (UTC), included. */
  readonly to: string;
  readonly appId?: string;
  readonly model?: string;
}

/** One app and model's totals within a day. */
export type AppModelTotals = { readonly appId: string; readonly model: string } & UsageTotals;

export interface DayTotals {
  readonly date: string;
  readonly totals: UsageTotals;
  /** Per app and model, by app id then model; only those with usage that day. */
  readonly byApp: AppModelTotals[];
}

export interface UsageTotalsView {
  readonly from: string;
  readonly to: string;
  /** Every usage row created before this instant (ISO 8601 UTC) is counted (some later ones may be); null when nothing is counted yet. */
  readonly asOf: string | null;
  readonly totals: UsageTotals;
  /** Every day of the range, oldest first, days without usage included (zero totals). */
  readonly days: DayTotals[];
}

/** Checks a range: real dates, `from` not after `to`, at most MAX_USAGE_RANGE_DAYS days. */
export function usageRangeRefusal(from: string, to: string): string | undefined {
  if (!isDate(from)) return 'Invalid from: must be a date YYYY-MM-DD';
  if (!isDate(to)) return 'Invalid to: must be a date YYYY-MM-DD';
  if (from > to) return 'Invalid range: from must not be after to';
  if ((dayStartUs(to) - dayStartUs(from)) / DAY_US + 1 > MAX_USAGE_RANGE_DAYS) return `Invalid range: at most ${MAX_USAGE_RANGE_DAYS} days`;
  return undefined;
}

/**
 * Usage and cost of an org by day, app and model over a range of UTC days, from the rollup's buckets
 * only, never the usage rows: day buckets for the days the rollup has closed, hour buckets for the
 * rest (today, or a day not final yet). One read of the rollup's progress and at most one Query per
 * kind of bucket, so a view reads (days x apps x models) items whatever the number of rows. `asOf`
 * says up to when rows are counted. Throws bad_request for a malformed or too long range.
 */
export async function usageTotals(deps: UsageRollupPorts, query: UsageTotalsQuery): Promise<UsageTotalsView> {
  const refusal = usageRangeRefusal(query.from, query.to);
  if (refusal) throw badRequest(refusal);
  const store = deps.usageRollups;
  const progress = await store.progress(query.orgId);
  const buckets: UsageBucket[] = [];
  if (progress) {
    const lastClosedDay = previousDay(progress.firstOpenDay);
    const closedTo = earlierDay(query.to, lastClosedDay);
    if (query.from <= closedTo) buckets.push(...(await store.dayBuckets(query.orgId, query.from, closedTo)));
    const openFrom = laterDay(query.from, progress.firstOpenDay);
    if (openFrom <= query.to) buckets.push(...dayBucketsOf(await store.hourBuckets(query.orgId, openFrom, query.to)));
  }
  const wanted = buckets.filter((b) => (query.appId === undefined || b.appId === query.appId) && (query.model === undefined || b.model === query.model));
  const byDay = new Map<string, UsageBucket[]>();
  for (const b of wanted) byDay.set(b.period, [...(byDay.get(b.period) ?? []), b]);
  const days = daysBetween(query.from, query.to).map((date): DayTotals => {
    const list = (byDay.get(date) ?? []).sort((a, b) => (a.appId < b.appId ? -1 : a.appId > b.appId ? 1 : a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
    return { date, totals: sumTotals(list), byApp: list.map((b) => ({ appId: b.appId, model: b.model, ...totalsOf(b) })) };
  });
  return {
    from: query.from,
    to: query.to,
    asOf: progress && progress.countedUntilUs > 0 ? microsToIso(progress.countedUntilUs) : null,
    totals: sumTotals(days.map((d) => d.totals)),
    days,
  };
}
