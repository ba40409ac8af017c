/**
 * The admin API's functions. Each admin route composes the smallest of these (ADR 0014): every one
 * has the core stores and the org credits (this module); key routes add the API gateway's keys
 * (admin-keys-wiring), lifecycle routes the jobs queue (admin-jobs-wiring), and each area's admin
 * routes add that area's ports in the area's own wiring. None has a model, MCP or webhook client.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../kernel/adapters/aws-clients';
import { DynamoBillingStore } from '../adapters/dynamo-org-store';
import { ENV } from '../../kernel/env';
import type { BillingPorts } from '../app/tenancy-ports';
import { buildCoreDeps, onFirstUse, type CoreDeps, type WiringOptions } from './core-wiring';
import { withAuditTrail } from './audit-wiring';

/** What every admin function has: the core stores, the org credits and the audit trail. */
export type AdminBaseDeps = CoreDeps & BillingPorts;

export function buildAdminBaseDeps(opts: WiringOptions, db: DynamoDBDocumentClient = createDocumentClient(opts.aws ?? {})): AdminBaseDeps {
  return { ...withAuditTrail(opts, db, buildCoreDeps(opts, db)), billing: new DynamoBillingStore(db, opts.env[ENV.tableName]) };
}

export const adminProductionDeps = /* @__PURE__ */ onFirstUse((opts) => buildAdminBaseDeps(opts));
