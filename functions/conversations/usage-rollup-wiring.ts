/**
 * The usage buckets' composition, apart from conversation-wiring.ts so that no chat function (which
 * builds on that file) bundles the rollup's adapter: the usage rollup job writes the buckets, the usage
 * view reads them, and nothing on a chat turn's path touches them.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../kernel/adapters/aws-clients';
import { ENV } from '../kernel/env';
import { buildCoreDeps, onFirstUse, type CoreDeps } from '../tenancy/wiring/core-wiring';
import { DynamoUsageRollupStore } from './adapters/dynamo-usage-rollup-store';
import type { UsageRollupPorts } from './app/usage-rollup-ports';

export function buildUsageRollupPorts(db: DynamoDBDocumentClient, table: string): UsageRollupPorts {
  return { usageRollups: new DynamoUsageRollupStore(db, table) };
}

/** The usage rollup job's deps: the org list and the usage buckets only. */
export const usageRollupProductionDeps = /* @__PURE__ */ onFirstUse((opts): CoreDeps & UsageRollupPorts => {
  const db = createDocumentClient(opts.aws ?? {});
  return { ...buildCoreDeps(opts, db), ...buildUsageRollupPorts(db, opts.env[ENV.tableName]) };
});
