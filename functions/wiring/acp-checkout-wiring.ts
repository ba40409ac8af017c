/** Area C's checkout functions: the catalog, sessions, inventory, idempotency keys and the payment handler. */
import { createDocumentClient } from '../adapters/aws-clients';
import { DynamoCheckoutStore } from '../adapters/dynamo-checkout-store';
import { DynamoIdempotencyStore } from '../adapters/dynamo-idempotency-store';
import { DynamoInventoryStore } from '../adapters/dynamo-inventory-store';
import { secretReader } from '../adapters/secrets-manager-secret';
import { StripePaymentGateway } from '../adapters/stripe-payment-gateway';
import { ENV } from '../env';
import type { AcpPorts, CheckoutPorts, PaymentGateway } from '../ports/acp';
import { buildAcpPorts } from './acp-wiring';
import { buildCoreDeps, onFirstUse, type CoreDeps, type WiringOptions } from './core-wiring';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export type AcpCheckoutDeps = CoreDeps & AcpPorts & CheckoutPorts;

/**
 * Stripe wherever the platform runs on AWS: the API key is read from the stage's secret on the first
 * charge, by functions granted `payments:charge` only. A function without the grant still shows the
 * Stripe handler in its sessions but cannot charge (a charge there is an unknown outcome, left to
 * recovery). The test handler exists only where a caller passes it: the local process and the tests.
 */
export function buildPaymentGateway(opts: WiringOptions): PaymentGateway {
  if (opts.payments) return opts.payments;
  const secretArn = opts.env[ENV.paymentSecretArn];
  return new StripePaymentGateway({
    apiKey: secretArn ? secretReader(secretArn) : () => Promise.reject(new Error('this function is not granted payments:charge')),
  });
}

export function buildCheckoutPorts(opts: WiringOptions, db: DynamoDBDocumentClient, table: string): CheckoutPorts {
  return {
    checkouts: new DynamoCheckoutStore(db, table),
    inventory: new DynamoInventoryStore(db, table),
    idempotency: new DynamoIdempotencyStore(db, table),
    payments: buildPaymentGateway(opts),
  };
}

export function buildAcpCheckoutDeps(opts: WiringOptions): AcpCheckoutDeps {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return { ...buildCoreDeps(opts, db), ...buildAcpPorts(db, table), ...buildCheckoutPorts(opts, db, table) };
}

export const acpCheckoutProductionDeps = onFirstUse(buildAcpCheckoutDeps);
