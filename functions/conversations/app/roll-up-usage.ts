import type { Clock, PlatformSettings } from '../../kernel/app/kernel-ports';
import type { Micros } from '../../kernel/domain/time';
import type { OrgStore } from '../../tenancy/app/tenancy-ports';
import { bucketId, dayBucketsOf, dayOf, hourBucketsOf, hourOf, hourStartOf, laterDay, previousDay, type UsageBucket } from '../domain/usage-buckets';
import type { UsageRow } from '../domain/usage';
import type { RollupProgress, UsageRollupPorts } from './usage-rollup-ports';

export type UsageRollupDeps = UsageRollupPorts & {
  readonly orgs: OrgStore;
  readonly clock: Clock;
  readonly settings: Pick<PlatformSettings, 'visibilityDelayMs'>;
};

/** Usage rows one org's rollup reads at most per run before it stops at the next hour boundary (a bigger backlog takes several runs). */
export const ROWS_PER_ORG_RUN = 50_000;

const ORG_PAGE = 100;

export type OrgRollupResult = {
  readonly rows: number;
  readonly hourBuckets: number;
  readonly dayBuckets: number;
};

const IDLE: OrgRollupResult = { rows: 0, hourBuckets: 0, dayBuckets: 0 };

/** Reads the rows of [fromUs, cutoffUs), stopping at the first hour boundary after `budget` rows; `untilUs` is where it stopped. */
async function readRows(deps: UsageRollupDeps, orgId: string, fromUs: Micros, cutoffUs: Micros, budget: number) {
  const rows: UsageRow[] = [];
  let lastHour: Micros | undefined;
  for await (const page of deps.usageRollups.usageRows(orgId, fromUs, cutoffUs)) {
    for (const row of page) {
      const hour = hourStartOf(row.createdAtUs);
      if (rows.length >= budget && hour !== lastHour) return { rows, untilUs: hour };
      lastHour = hour;
      rows.push(row);
    }
  }
  return { rows, untilUs: cutoffUs };
}

/**
 * Brings one org's usage buckets up to date: recomputes, from the usage rows, every hour not final yet
 * up to `now - visibility delay` (rows older than that are all committed, docs/design.md §3) and writes
 * each (hour, app, model) bucket whole; an hour past that point is final and never read again. A day
 * whose hours are all final gets its day buckets, summed from its hour buckets. Each write is a whole
 * put or delete, in an order that lets a crash anywhere be re-run: the progress item names a bucket of
 * the open hour before the bucket is written, and moves forward only after everything it covers is in.
 */
export async function rollUpOrgUsage(deps: UsageRollupDeps, orgId: string, budget = ROWS_PER_ORG_RUN): Promise<OrgRollupResult> {
  const store = deps.usageRollups;
  const cutoffUs = deps.clock.nowUs() - deps.settings.visibilityDelayMs * 1000;
  const before = await store.progress(orgId);
  // A clock or a delay that moved back: nothing new is safe to count, and final hours stay final.
  if (before && cutoffUs <= before.finalUntilUs) return IDLE;
  const { rows, untilUs } = await readRows(deps, orgId, before?.finalUntilUs ?? 0, cutoffUs, budget);
  if (!before && rows.length === 0) return IDLE;

  const finalUntilUs = untilUs < cutoffUs ? untilUs : hourStartOf(cutoffUs);
  const buckets = hourBucketsOf(rows);
  const openHour = finalUntilUs < untilUs ? hourOf(finalUntilUs) : undefined;
  const openBuckets = buckets.filter((b) => b.period === openHour).map(bucketId);
  const previouslyOpen = before?.openBuckets ?? [];
  const progress: RollupProgress = before ?? { finalUntilUs: 0, firstOpenDay: dayOf(rows[0]!.createdAtUs), openBuckets: [], countedUntilUs: 0 };

  if (openBuckets.some((id) => !previouslyOpen.includes(id))) {
    await store.saveProgress(orgId, { ...progress, openBuckets: [...new Set([...previouslyOpen, ...openBuckets])] });
  }
  for (const bucket of buckets) await store.putHourBucket(orgId, bucket);
  const written = new Set(buckets.map(bucketId));
  for (const id of previouslyOpen) if (!written.has(id)) await store.deleteHourBucket(orgId, id);

  const firstOpenDay = laterDay(dayOf(finalUntilUs), progress.firstOpenDay);
  let days: UsageBucket[] = [];
  if (firstOpenDay > progress.firstOpenDay) {
    days = dayBucketsOf(await store.hourBuckets(orgId, progress.firstOpenDay, previousDay(firstOpenDay)));
    for (const day of days) await store.putDayBucket(orgId, day);
  }

  const unchanged = before && rows.length === 0 && previouslyOpen.length === 0 && before.finalUntilUs === finalUntilUs;
  if (!unchanged) await store.saveProgress(orgId, { finalUntilUs, firstOpenDay, openBuckets, countedUntilUs: untilUs });
  return { rows: rows.length, hourBuckets: buckets.length, dayBuckets: days.length };
}

/** Table pages scanned per run while older orgs are put on the org list (docs/adr/0044). */
const LISTING_PAGES_PER_RUN = 5;

/**
 * The usage rollup job: brings the buckets of up to `maxOrgs` orgs up to date, continuing the walk over
 * the orgs where the run before stopped and starting over after the last org. An org that fails does
 * not hold up the others: the run goes on and then fails with the first error, so the schedule retries.
 */
export async function rollUpUsage(deps: UsageRollupDeps, input: { maxOrgs: number; rowsPerOrg?: number }): Promise<{ orgs: number } & OrgRollupResult> {
  // Orgs created before the org list existed join it a few table pages per run, then this is one read.
  await deps.orgs.completeListing(LISTING_PAGES_PER_RUN);
  let after = await deps.usageRollups.orgCursor();
  let orgs = 0;
  let rows = 0;
  let hourBuckets = 0;
  let dayBuckets = 0;
  const failures: { orgId: string; error: unknown }[] = [];
  while (orgs < input.maxOrgs) {
    const page = await deps.orgs.list(Math.min(ORG_PAGE, input.maxOrgs - orgs), after);
    // The run before stopped at the last org (a full page says there may be more): start over now.
    if (page.orgs.length === 0 && orgs === 0 && after !== undefined) {
      after = undefined;
      continue;
    }
    for (const org of page.orgs) {
      orgs++;
      try {
        const done = await rollUpOrgUsage(deps, org.id, input.rowsPerOrg);
        rows += done.rows;
        hourBuckets += done.hourBuckets;
        dayBuckets += done.dayBuckets;
      } catch (error) {
        failures.push({ orgId: org.id, error });
      }
    }
    after = page.next;
    await deps.usageRollups.saveOrgCursor(after);
    if (after === undefined) break;
  }
  if (failures.length > 0) {
    throw new Error(`usage rollup failed for ${failures.length} org(s), first ${failures[0]!.orgId}: ${String(failures[0]!.error)}`, {
      cause: failures[0]!.error,
    });
  }
  return { orgs, rows, hourBuckets, dayBuckets };
}

/** Scheduled job `usage-rollup`: at most `maxItems` orgs per run. */
export const usageRollupJob = (deps: UsageRollupDeps, maxItems: number) => rollUpUsage(deps, { maxOrgs: maxItems });
