import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { Context } from 'aws-lambda';
import type { Telemetry } from '../app/kernel-ports';
import type { ScheduleDef } from '../route-vocabulary';
import { SCHEDULED_BATCH, type ScheduledJob } from '../app/scheduled-job';

export type JobHandler = (event: unknown, context: Context) => Promise<Record<string, number>>;

/**
 * A scheduled job's Lambda: runs the job, logs and counts what it did under the job's name (`schedule`
 * is the job's own entry of its area's table). A failure propagates, so the schedule retries.
 */
export function scheduledJob<D>(schedule: ScheduleDef, run: ScheduledJob<D>, deps: D & Telemetry): JobHandler {
  const name = schedule.id;
  const core = async (): Promise<Record<string, number>> => {
    const result = await run(deps, SCHEDULED_BATCH);
    deps.logger.info('job finished', { job: name, ...result });
    for (const [k, v] of Object.entries(result)) deps.metrics.addMetric(`${name}.${k}`, MetricUnit.Count, v);
    return result;
  };
  return middy(core)
    .use(injectLambdaContext(deps.logger, { logEvent: false }))
    .use(logMetrics(deps.metrics)) as unknown as JobHandler;
}

/** The Lambda `handler` of job `schedule`, with deps from `productionDeps` (a builder that wires only that job's ports) on first call. */
export function lambdaJob<D>(schedule: ScheduleDef, run: ScheduledJob<D>, productionDeps: () => D & Telemetry): JobHandler {
  let built: JobHandler | undefined;
  return (event, context) => {
    built ??= scheduledJob(schedule, run, productionDeps());
    return built(event, context);
  };
}
