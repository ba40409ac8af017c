/** Items one scheduled run handles at most (the schedule's 300 s Lambda); the next run continues. */
export const SCHEDULED_BATCH = 1000;

/** What a scheduled job answers: counts of what it did, logged and sent as metrics. */
export type JobResult = Promise<Record<string, number>>;

/** A scheduled job of an area: runs its use case over at most `maxItems` items. */
export type ScheduledJob<D> = (deps: D, maxItems: number) => JobResult;
