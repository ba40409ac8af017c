import type { Micros } from '../../kernel/domain/time';
import type { UsageBucket } from '../domain/usage-buckets';
import type { UsageRow } from '../domain/usage';

/** How far the rollup of one org has come: one item, so an idle org costs the job one read of it. */
export interface RollupProgress {
  /** Every hour that ends at or before this (a UTC hour boundary) is final: computed once it was past the visibility delay. */
  readonly finalUntilUs: Micros;
  /** The first day (`YYYY-MM-DD`) without final day buckets: every day before it has them. */
  readonly firstOpenDay: string;
  /** Ids of the hour buckets written for the hour that is not final yet, so one whose rows moved away is deleted. */
  readonly openBuckets: readonly string[];
  /** Usage rows created before this are counted in the buckets (the view's `asOf`). */
  readonly countedUntilUs: Micros;
}

/**
 * The usage buckets of each org (per hour and per day, app and model), the rollup's progress, and the
 * usage rows the rollup reads. Every write is a whole-item put or delete: writing the same thing twice
 * is the same as writing it once.
 */
export interface UsageRollupStore {
  progress(orgId: string): Promise<RollupProgress | undefined>;
  saveProgress(orgId: string, progress: RollupProgress): Promise<void>;
  /** The org's usage rows created in [fromUs, toUs), by (created_at, id) ascending, page by page. */
  usageRows(orgId: string, fromUs: Micros, toUs: Micros): AsyncIterable<readonly UsageRow[]>;
  putHourBucket(orgId: string, bucket: UsageBucket): Promise<void>;
  deleteHourBucket(orgId: string, id: string): Promise<void>;
  putDayBucket(orgId: string, bucket: UsageBucket): Promise<void>;
  /** The hour buckets of the days `fromDay` to `toDay` (both included), read after every write before. */
  hourBuckets(orgId: string, fromDay: string, toDay: string): Promise<UsageBucket[]>;
  /** The day buckets of the days `fromDay` to `toDay` (both included), read after every write before. */
  dayBuckets(orgId: string, fromDay: string, toDay: string): Promise<UsageBucket[]>;
  /** Where the job's walk over the orgs continues (the org list's `next`); undefined: from the start. */
  orgCursor(): Promise<string | undefined>;
  saveOrgCursor(after: string | undefined): Promise<void>;
}

/** The ports of the usage rollup and the usage view. */
export interface UsageRollupPorts {
  readonly usageRollups: UsageRollupStore;
}
