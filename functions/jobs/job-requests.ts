/**
 * The request of the admin route that runs a scheduled job now: the job's name in the path (the
 * handler checks it against the schedules, with a 400 that lists them), and a body the run ignores.
 */
import { jsonBody, textParam } from '../kernel/http/request-declaration';

export const JOB_REQUESTS = {
  adminJobRun: {
    path: { jobName: textParam({ description: 'A scheduled job’s name' }) },
    body: jsonBody({ type: 'object', description: 'Ignored: a run takes no options (send none, or `{}`)' }, () => undefined),
  },
};
