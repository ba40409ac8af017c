/**
 * The admin route that runs a scheduled job now (any area's job, by name).
 * Joined into the one route table by functions/routes.ts; synth loads this file, so it imports only types and leaf modules.
 */
import { ADMIN_API_BASE as ADMIN } from '../kernel/domain/admin-api-base';
import { adminRoute, routeTable } from '../kernel/route-vocabulary';
import { textPathParam } from '../kernel/domain/ids';

export const JOB_ROUTES = routeTable({
  adminJobRun: adminRoute({
    method: 'POST',
    path: `${ADMIN}/jobs/{jobName}/runs`,
    pathParams: { jobName: textPathParam('The scheduled job’s name (its id in the worker table); another name is a 400 listing them') },
    handler: 'jobs/http/admin-job-run',
    body: 'json',
    grants: ['table:read', 'table:write', 'jobs:send', 'bucket:read', 'bucket:write', 'payments:charge', 'order-events:send'],
    timeoutSeconds: 29,
  }),
});
