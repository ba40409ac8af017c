/**
 * The console's usage view: the rollup's buckets (usage-rollup-wiring.ts) with the console admission over
 * the admin functions' base; apart from the rollup job's wiring, whose bundle carries no console client.
 */
import { createDocumentClient } from '../kernel/adapters/aws-clients';
import { ENV } from '../kernel/env';
import { buildAdminBaseDeps } from '../tenancy/wiring/admin-wiring';
import { onFirstUse } from '../tenancy/wiring/core-wiring';
import { withConsoleCallers } from '../tenancy/wiring/console-tenancy-wiring';
import type { ConsoleWiringOptions } from '../tenancy/wiring/console-identity-wiring';
import { buildUsageRollupPorts } from './usage-rollup-wiring';

export const consoleUsageProductionDeps = /* @__PURE__ */ onFirstUse((opts: ConsoleWiringOptions) => {
  const db = createDocumentClient(opts.aws ?? {});
  return withConsoleCallers(opts, db, { ...buildAdminBaseDeps(opts, db), ...buildUsageRollupPorts(db, opts.env[ENV.tableName]) });
});
