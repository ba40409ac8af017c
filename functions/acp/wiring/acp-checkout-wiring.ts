/**
 * Area C's checkout functions: the catalog, sessions, inventory, idempotency keys, the payment handler,
 * each app's order-event receiver and the order-events queue.
 */
import { createDocumentClient } from '../../platform/adapters/aws-clients';
import { DynamoCheckoutStore } from '../adapters/dynamo-checkout-store';
import { DynamoIdempotencyStore } from '../../platform/adapters/dynamo-idempotency-store';
import { DynamoInventoryStore } from '../adapters/dynamo-inventory-store';
import { secretReader } from '../adapters/secrets-manager-secret';
import { StripePaymentProvider } from '../adapters/stripe-payment-provider';
import { ENV } from '../../platform/env';
import type { AcpPorts, CheckoutPorts, PaymentProvider } from '../ports/acp-ports';
import { buildAcpPorts } from './acp-wiring';
import { buildOrderEventPorts } from './order-event-queue-wiring';
import { buildCoreDeps, onFirstUse, type CoreDeps, type WiringOptions } from '../../platform/wiring/core-wiring';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** Area C's wiring seams: the payment handler. */
export interface AcpWiringOptions extends WiringOptions {
  /**
   * The local process's payment handler (the built-in test handler, or a test's own). The Lambda
   * wiring never passes one: on AWS it is always Stripe (acp-checkout-wiring.ts).
   */
  readonly payments?: PaymentProvider;
}

export type AcpCheckoutDeps = CoreDeps & AcpPorts & CheckoutPorts;

/**
 * Stripe wherever the platform runs on AWS: the API key is read from the stage's secret on the first
 * charge, by functions granted `payments:charge` only. A function without the grant still shows the
 * Stripe handler in its sessions but cannot charge (a charge there is an unknown outcome, left to
 * recovery). The test handler exists only where a caller passes it: the local process and the tests.
 */
export function buildPaymentProvider(opts: AcpWiringOptions): PaymentProvider {
  if (opts.payments) return opts.payments;
  const secretArn = opts.env[ENV.paymentSecretArn];
  return new StripePaymentProvider({
    apiKey: secretArn ? secretReader(secretArn) : () => Promise.reject(new Error('this function is not granted payments:charge')),
  });
}

export function buildCheckoutPorts(opts: AcpWiringOptions, db: DynamoDBDocumentClient, table: string): CheckoutPorts {
  return {
    checkouts: new DynamoCheckoutStore(db, table),
    inventory: new DynamoInventoryStore(db, table),
    idempotency: new DynamoIdempotencyStore(db, table),
    payments: buildPaymentProvider(opts),
    ...buildOrderEventPorts(opts, db, table),
  };
}

export function buildAcpCheckoutDeps(opts: AcpWiringOptions): AcpCheckoutDeps {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return { ...buildCoreDeps(opts, db), ...buildAcpPorts(db, table), ...buildCheckoutPorts(opts, db, table) };
}

export const acpCheckoutProductionDeps = onFirstUse(buildAcpCheckoutDeps);
