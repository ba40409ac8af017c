/** Test helpers of the usage rollup: a store that crashes at its Nth write, and the naive view computed from the rows. */
import type { RollupProgress, UsageRollupStore } from '../../functions/conversations/app/usage-rollup-ports';
import type { DayTotals, UsageTotalsView } from '../../functions/conversations/app/usage-totals';
import { dayOf, daysBetween, usdToPico, type UsageBucket, type UsageTotals } from '../../functions/conversations/domain/usage-buckets';
import type { UsageRow } from '../../functions/conversations/domain/usage';
import type { Micros } from '../../functions/kernel/domain/time';
import { microsToIso } from '../../functions/kernel/domain/time';
import { formatUsd } from '../../functions/tenancy/domain/pricing';

/**
 * Passes every call to `inner`, and throws instead of making write number `failAt` (1-based) and every
 * write after it; with `onlyOrg`, counts and fails only the writes of that org.
 */
export class CrashingRollupStore implements UsageRollupStore {
  private writes = 0;
  crashed = false;

  constructor(
    private readonly inner: UsageRollupStore,
    private readonly failAt?: number,
    private readonly onlyOrg?: string,
  ) {}

  private async write(run: () => Promise<void>, orgId?: string): Promise<void> {
    if (this.onlyOrg !== undefined && orgId !== this.onlyOrg) return run();
    this.writes++;
    if (this.failAt !== undefined && this.writes >= this.failAt) {
      this.crashed = true;
      throw new Error(`crash at write ${this.writes}`);
    }
    await run();
  }

  progress(orgId: string) {
    return this.inner.progress(orgId);
  }
  saveProgress(orgId: string, progress: RollupProgress) {
    return this.write(() => this.inner.saveProgress(orgId, progress), orgId);
  }
  usageRows(orgId: string, fromUs: Micros, toUs: Micros) {
    return this.inner.usageRows(orgId, fromUs, toUs);
  }
  putHourBucket(orgId: string, bucket: UsageBucket) {
    return this.write(() => this.inner.putHourBucket(orgId, bucket), orgId);
  }
  deleteHourBucket(orgId: string, id: string) {
    return this.write(() => this.inner.deleteHourBucket(orgId, id), orgId);
  }
  putDayBucket(orgId: string, bucket: UsageBucket) {
    return this.write(() => this.inner.putDayBucket(orgId, bucket), orgId);
  }
  hourBuckets(orgId: string, fromDay: string, toDay: string) {
    return this.inner.hourBuckets(orgId, fromDay, toDay);
  }
  dayBuckets(orgId: string, fromDay: string, toDay: string) {
    return this.inner.dayBuckets(orgId, fromDay, toDay);
  }
  orgCursor() {
    return this.inner.orgCursor();
  }
  saveOrgCursor(after: string | undefined) {
    return this.write(() => this.inner.saveOrgCursor(after));
  }
}

function naiveTotals(rows: readonly UsageRow[]): UsageTotals {
  const sum = (f: (r: UsageRow) => number) => rows.reduce((a, r) => a + f(r), 0);
  return {
    calls: rows.length,
    inputTokens: sum((r) => r.inputTokens),
    outputTokens: sum((r) => r.outputTokens),
    cacheReadInputTokens: sum((r) => r.cacheReadInputTokens),
    cacheCreationInputTokens: sum((r) => r.cacheCreationInputTokens),
    costUsd: formatUsd(rows.reduce((a, r) => a + usdToPico(r.costUsd), 0n)),
  };
}

/** What the usage view must answer for `rows` over [from, to] when the rows created before `asOfUs` are counted. */
export function naiveView(rows: readonly UsageRow[], from: string, to: string, asOfUs: Micros): UsageTotalsView {
  const counted = rows.filter((r) => r.createdAtUs < asOfUs && dayOf(r.createdAtUs) >= from && dayOf(r.createdAtUs) <= to);
  const days = daysBetween(from, to).map((date): DayTotals => {
    const ofDay = counted.filter((r) => dayOf(r.createdAtUs) === date);
    const keys = [...new Set(ofDay.map((r) => JSON.stringify([r.appId, r.model])))].map((k) => JSON.parse(k) as [string, string]).sort();
    return {
      date,
      totals: naiveTotals(ofDay),
      byApp: keys.map(([appId, model]) => ({ appId, model, ...naiveTotals(ofDay.filter((r) => r.appId === appId && r.model === model)) })),
    };
  });
  return { from, to, asOf: asOfUs > 0 ? microsToIso(asOfUs) : null, totals: naiveTotals(counted), days };
}
