import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { Context } from 'aws-lambda';
import { lifecycleProductionDeps, type LifecycleDeps } from '../wiring/lifecycle-wiring';
import type { JobName } from '../workers';
import { runJob } from '../app/run-job';

export type JobHandler = (event: unknown, context: Context) => Promise<Record<string, number>>;

/** A scheduled job's Lambda: runs the job, logs and counts what it did. A failure propagates, so the schedule retries. */
export function scheduledJob(name: JobName, deps: LifecycleDeps): JobHandler {
  const core = async (): Promise<Record<string, number>> => {
    const result = await runJob(deps, name);
    deps.logger.info('job finished', { job: name, ...result });
    for (const [k, v] of Object.entries(result)) deps.metrics.addMetric(`${name}.${k}`, MetricUnit.Count, v);
    return result;
  };
  return middy(core).use(injectLambdaContext(deps.logger, { logEvent: false })).use(logMetrics(deps.metrics)) as unknown as JobHandler;
}

export function lambdaJob(name: JobName): JobHandler {
  let built: JobHandler | undefined;
  return (event, context) => {
    built ??= scheduledJob(name, lifecycleProductionDeps());
    return built(event, context);
  };
}
