/** The admin routes that start lifecycle work (app deletion, a job run now): the base admin deps plus the jobs queue (and the bucket for a job run). */
import type { ObjectStore } from '../ports/files';
import type { JobQueue } from '../ports/platform';
import { buildAdminBaseDeps, type AdminBaseDeps } from './admin-wiring';
import { onFirstUse } from './core-wiring';
import { buildJobQueue } from './job-queue-wiring';

import { buildObjectStore } from './object-store-wiring';

export type AdminJobsDeps = AdminBaseDeps & { readonly jobs: JobQueue };

export const adminJobsProductionDeps = onFirstUse(
  (opts): AdminJobsDeps => ({ ...buildAdminBaseDeps(opts), jobs: buildJobQueue(opts) }),
);

/** A job run now may be the file cleanup, which removes objects from the bucket. */
export type AdminJobRunDeps = AdminJobsDeps & { readonly objects: ObjectStore };

export const adminJobRunProductionDeps = onFirstUse(
  (opts): AdminJobRunDeps => ({ ...buildAdminBaseDeps(opts), jobs: buildJobQueue(opts), objects: buildObjectStore(opts) }),
);
