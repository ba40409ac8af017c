/** Area C's functions (ACP): the catalog. Checkout sessions, orders and payments join it with the checkout routes. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../platform/adapters/aws-clients';
import { DynamoProductStore } from '../adapters/dynamo-product-store';
import { ENV } from '../../platform/env';
import type { AcpPorts } from '../ports/acp-ports';
import { buildCoreDeps, onFirstUse, type CoreDeps, type WiringOptions } from '../../platform/wiring/core-wiring';

export type AcpFunctionDeps = CoreDeps & AcpPorts;

export function buildAcpPorts(db: DynamoDBDocumentClient, table: string): AcpPorts {
  return { products: new DynamoProductStore(db, table) };
}

export function buildAcpDeps(opts: WiringOptions): AcpFunctionDeps {
  const db = createDocumentClient(opts.aws ?? {});
  return { ...buildCoreDeps(opts, db), ...buildAcpPorts(db, opts.env[ENV.tableName]) };
}

export const acpProductionDeps = onFirstUse(buildAcpDeps);
