/** The admin routes that start lifecycle work (app deletion, a job run now): the base admin deps plus the jobs queue. */
import { createSqsClient } from '../adapters/aws-queue-clients';
import { SqsJobQueue } from '../adapters/sqs-job-queue';
import { ENV } from '../env';
import type { JobQueue } from '../ports/platform';
import { buildAdminBaseDeps, type AdminBaseDeps } from './admin-wiring';
import { onFirstUse } from './core-wiring';

export type AdminJobsDeps = AdminBaseDeps & { readonly jobs: JobQueue };

export const adminJobsProductionDeps = onFirstUse(
  (opts): AdminJobsDeps => ({ ...buildAdminBaseDeps(opts), jobs: new SqsJobQueue(createSqsClient(opts.aws ?? {}), opts.env[ENV.jobsQueueUrl]) }),
);
