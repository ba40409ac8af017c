/** The admin routes that start lifecycle work (app deletion, a job run now): the base admin deps plus the jobs queue (and the bucket for a job run). */
import { createDocumentClient } from '../adapters/aws-clients';
import { ENV } from '../env';
import type { AcpPorts, CheckoutPorts } from '../ports/acp';
import type { ObjectStore } from '../ports/files';
import { buildAcpPorts } from './acp-wiring';
import { buildCheckoutPorts } from './acp-checkout-wiring';
import type { JobQueue } from '../ports/platform';
import { buildAdminBaseDeps, type AdminBaseDeps } from './admin-wiring';
import { onFirstUse } from './core-wiring';
import { buildJobQueue } from './job-queue-wiring';

import { buildObjectStore } from './object-store-wiring';

export type AdminJobsDeps = AdminBaseDeps & { readonly jobs: JobQueue };

export const adminJobsProductionDeps = onFirstUse(
  (opts): AdminJobsDeps => ({ ...buildAdminBaseDeps(opts), jobs: buildJobQueue(opts) }),
);

/** A job run now may be the file cleanup, which removes objects from the bucket, or the checkout recovery, which charges. */
export type AdminJobRunDeps = AdminJobsDeps & AcpPorts & CheckoutPorts & { readonly objects: ObjectStore };

export const adminJobRunProductionDeps = onFirstUse((opts): AdminJobRunDeps => {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return { ...buildAdminBaseDeps(opts, db), jobs: buildJobQueue(opts), objects: buildObjectStore(opts), ...buildAcpPorts(db, table), ...buildCheckoutPorts(opts, db, table) };
});
