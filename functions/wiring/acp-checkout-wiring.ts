/** Area C's checkout functions: the catalog, sessions, inventory, idempotency keys and the payment handler. */
import { createDocumentClient } from '../adapters/aws-clients';
import { DynamoCheckoutStore } from '../adapters/dynamo-checkout-store';
import { DynamoIdempotencyStore } from '../adapters/dynamo-idempotency-store';
import { DynamoInventoryStore } from '../adapters/dynamo-inventory-store';
import { TestPaymentGateway } from '../adapters/test-payment-gateway';
import { ENV } from '../env';
import type { AcpPorts, CheckoutPorts } from '../ports/acp';
import { buildAcpPorts } from './acp-wiring';
import { buildCoreDeps, onFirstUse, type CoreDeps, type WiringOptions } from './core-wiring';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export type AcpCheckoutDeps = CoreDeps & AcpPorts & CheckoutPorts;

export function buildCheckoutPorts(db: DynamoDBDocumentClient, table: string): CheckoutPorts {
  return {
    checkouts: new DynamoCheckoutStore(db, table),
    inventory: new DynamoInventoryStore(db, table),
    idempotency: new DynamoIdempotencyStore(db, table),
    // The built-in test handler everywhere until a payment provider adapter is configured (next step of issue 10).
    payments: new TestPaymentGateway(),
  };
}

export function buildAcpCheckoutDeps(opts: WiringOptions): AcpCheckoutDeps {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return { ...buildCoreDeps(opts, db), ...buildAcpPorts(db, table), ...buildCheckoutPorts(db, table) };
}

export const acpCheckoutProductionDeps = onFirstUse(buildAcpCheckoutDeps);
