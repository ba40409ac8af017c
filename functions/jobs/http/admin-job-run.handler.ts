import { runJob } from '../app/run-job';
import { badRequest } from '../../kernel/domain/errors';
import { SCHEDULES, type JobName } from '../../workers';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { adminJobRunProductionDeps, type AdminJobRunDeps } from '../wiring/admin-job-run-wiring';
import { JOB_ROUTES } from '../job-routes';
import { JOB_REQUESTS } from '../job-requests';
import { readParameters } from '../../kernel/http/request-declaration';

/** Items one admin-triggered run handles, so it answers within API Gateway's 29 s; run it again for more. */
const ADMIN_RUN_BATCH = 200;

/** POST /admin/v1/jobs/{jobName}/runs: runs a scheduled job now and returns what it did. */
export const createHandler = (deps: AdminJobRunDeps) =>
  httpRoute(JOB_ROUTES.adminJobRun, deps, async (req) => {
    const name = readParameters(JOB_REQUESTS.adminJobRun, req).path.jobName;
    if (!SCHEDULES.some((s) => s.id === name)) {
      throw badRequest(`Invalid jobName: one of ${SCHEDULES.map((s) => s.id).join(', ')}`);
    }
    return { status: 200, body: { data: { job: name, result: await runJob(deps, name as JobName, ADMIN_RUN_BATCH) } } };
  });

export const handler = lambdaHandler(createHandler, adminJobRunProductionDeps);
