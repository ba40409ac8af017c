/** The admin routes that start lifecycle work (app deletion, a job run now): the base admin deps plus the jobs queue. */
import type { JobQueue } from '../ports/platform';
import { buildAdminBaseDeps, type AdminBaseDeps } from './admin-wiring';
import { onFirstUse } from './core-wiring';
import { buildJobQueue } from './job-queue-wiring';

export type AdminJobsDeps = AdminBaseDeps & { readonly jobs: JobQueue };

export const adminJobsProductionDeps = onFirstUse(
  (opts): AdminJobsDeps => ({ ...buildAdminBaseDeps(opts), jobs: buildJobQueue(opts) }),
);
