/**
 * The audit trail of the functions that serve console or admin routes: every change their callers
 * make is recorded by the kit. A function of the key APIs alone (a chat turn) never loads it.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ENV } from '../../kernel/env';
import { DynamoAuditLog } from '../adapters/dynamo-audit-log';
import { auditTrailOf } from '../app/act-on-org';
import type { CoreDeps, WiringOptions } from './core-wiring';

export function withAuditTrail<D extends CoreDeps>(opts: WiringOptions, db: DynamoDBDocumentClient, deps: D): D {
  return { ...deps, auditTrail: auditTrailOf({ ...deps, audit: new DynamoAuditLog(db, opts.env[ENV.tableName]) }) };
}
