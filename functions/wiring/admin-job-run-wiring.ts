/**
 * The admin route that runs a job now: any job, so everything a job may use: the jobs queue, the bucket
 * (file cleanup) and the checkout ports with payments (checkout recovery). Its own module, so the other
 * admin lifecycle routes (admin-jobs-wiring.ts) bundle none of it.
 */
import { createDocumentClient } from '../adapters/aws-clients';
import { ENV } from '../env';
import type { AcpPorts, CheckoutPorts } from '../ports/acp';
import type { ObjectStore } from '../ports/files';
import { buildAcpPorts } from './acp-wiring';
import { buildCheckoutPorts } from './acp-checkout-wiring';
import type { AdminJobsDeps } from './admin-jobs-wiring';
import { buildAdminBaseDeps } from './admin-wiring';
import { onFirstUse } from './core-wiring';
import { buildJobQueue } from './job-queue-wiring';
import { buildObjectStore } from './object-store-wiring';

export type AdminJobRunDeps = AdminJobsDeps & AcpPorts & CheckoutPorts & { readonly objects: ObjectStore };

export const adminJobRunProductionDeps = onFirstUse((opts): AdminJobRunDeps => {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return {
    ...buildAdminBaseDeps(opts, db),
    jobs: buildJobQueue(opts),
    objects: buildObjectStore(opts),
    ...buildAcpPorts(db, table),
    ...buildCheckoutPorts(opts, db, table),
  };
});
