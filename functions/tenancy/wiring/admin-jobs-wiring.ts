/** The admin routes that start lifecycle work (an app deletion): the base admin deps plus the jobs queue. A job run now has its own wiring (admin-job-run-wiring.ts). */
import type { JobQueue } from '../../kernel/app/kernel-ports';
import { buildAdminBaseDeps, type AdminBaseDeps } from './admin-wiring';
import { onFirstUse } from './core-wiring';
import { buildJobQueue } from '../../kernel/wiring/job-queue-wiring';

export type AdminJobsDeps = AdminBaseDeps & { readonly jobs: JobQueue };

export const adminJobsProductionDeps = /* @__PURE__ */ onFirstUse((opts): AdminJobsDeps => ({ ...buildAdminBaseDeps(opts), jobs: buildJobQueue(opts) }));
