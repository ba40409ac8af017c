/**
 * The admin route that runs a job now: any job, so everything a job may use: the jobs queue, the bucket
 * (file cleanup), the usage buckets (usage rollup) and the checkout ports with payments (checkout recovery). Its own module, so the other
 * admin lifecycle routes (admin-jobs-wiring.ts) bundle none of it.
 */
import { createDocumentClient } from '../../kernel/adapters/aws-clients';
import { ENV } from '../../kernel/env';
import type { AcpPorts, CheckoutPorts } from '../../acp/app/acp-ports';
import type { ObjectStore } from '../../conversations/app/file-ports';
import { buildAcpPorts, buildCheckoutPorts } from '../../acp/acp-wiring';
import { buildConversationDeps, type ConversationAdminDeps } from '../../conversations/conversation-wiring';
import { buildObjectStore } from '../../conversations/object-store-wiring';
import { buildUsageRollupPorts } from '../../conversations/usage-rollup-wiring';
import type { UsageRollupPorts } from '../../conversations/app/usage-rollup-ports';
import type { JobQueue } from '../../kernel/app/kernel-ports';
import { onFirstUse } from '../../tenancy/wiring/core-wiring';
import { buildJobQueue } from '../../kernel/wiring/job-queue-wiring';

export type AdminJobRunDeps = ConversationAdminDeps &
  UsageRollupPorts & { readonly jobs: JobQueue } & AcpPorts &
  CheckoutPorts & { readonly objects: ObjectStore };

export const adminJobRunProductionDeps = /* @__PURE__ */ onFirstUse((opts): AdminJobRunDeps => {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return {
    ...buildConversationDeps(opts, db),
    jobs: buildJobQueue(opts),
    objects: buildObjectStore(opts),
    ...buildUsageRollupPorts(db, table),
    ...buildAcpPorts(db, table),
    ...buildCheckoutPorts(opts, db, table),
  };
});
