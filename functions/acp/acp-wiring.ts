/**
 * Area C's composition root, one production deps per kind of function:
 * - the catalog (discovery, agent cards, product lists and the admin product routes): the products;
 * - the checkout (its routes, the recovery job and the admin order routes): sessions, inventory,
 *   idempotency keys, the payment handler, each app's order-event receiver, the order-events queue
 *   and the order-event log; the receiver's admin routes add the SSRF check of its URL and the sealer
 *   of its secret;
 * - the order-events worker: the sessions and their receivers, the queue, the log and the outbound-
 *   webhook machinery, but no payment provider (it never charges).
 * Every one has the org credits an admin route needs. Each production deps is a pure declaration, so
 * a function's bundle keeps only the clients of the one it uses: the catalog carries no SQS, Stripe or
 * Secrets Manager, the worker neither Stripe nor Secrets Manager.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../kernel/adapters/aws-clients';
import { createSqsClient } from '../kernel/adapters/aws-queue-clients';
import { DynamoIdempotencyStore } from '../kernel/adapters/dynamo-idempotency-store';
import { ENV } from '../kernel/env';
import type { CallbackCheckDeps, SecretSealer, WebhookSender } from '../kernel/app/outbound-webhook-ports';
import { buildAdminBaseDeps, type AdminBaseDeps } from '../tenancy/wiring/admin-wiring';
import { buildCoreDeps, onFirstUse, type CoreDeps, type WiringOptions } from '../tenancy/wiring/core-wiring';
import { buildWebhookSealing, buildWebhookSender, type OutboundWebhookWiringOptions } from '../kernel/wiring/outbound-webhook-wiring';
import { DynamoCheckoutReader } from './adapters/dynamo-checkout-reader';
import { DynamoCheckoutStore } from './adapters/dynamo-checkout-store';
import { DynamoInventoryStore } from './adapters/dynamo-inventory-store';
import { DynamoOrderEventLog } from './adapters/dynamo-order-event-log';
import { DynamoOrderWebhookStore } from './adapters/dynamo-order-webhook-store';
import { DynamoProductStore } from './adapters/dynamo-product-store';
import { secretReader } from './adapters/secrets-manager-secret';
import { SqsOrderEventQueue } from './adapters/sqs-order-event-queue';
import { StripePaymentProvider } from './adapters/stripe-payment-provider';
import type { AcpPorts, CheckoutPorts, OrderEventLog, PaymentProvider } from './app/acp-ports';

/** Area C's wiring seams: the payment handler, and the outbound-webhook ones (as area D's). */
export interface AcpWiringOptions extends OutboundWebhookWiringOptions {
  /**
   * The local process's payment handler (the built-in test handler, or a test's own). The Lambda
   * wiring never passes one: on AWS it is always Stripe (buildPaymentProvider).
   */
  readonly payments?: PaymentProvider;
}

/** What delivering an order event needs beyond the checkout ports. */
export interface OrderEventDeliveryPorts extends CallbackCheckDeps {
  readonly orderEventLog: OrderEventLog;
  readonly secrets: SecretSealer;
  readonly webhookSender: WebhookSender;
}

export type AcpFunctionDeps = CoreDeps & AcpPorts;
export type AdminProductsDeps = AdminBaseDeps & AcpPorts;
export type AcpCheckoutDeps = CoreDeps & AcpPorts & CheckoutPorts;
export type AdminOrdersDeps = AdminBaseDeps & CheckoutPorts & { readonly orderEventLog: OrderEventLog };
export type AdminOrderWebhookDeps = AdminBaseDeps & CheckoutPorts & CallbackCheckDeps & { readonly secrets: SecretSealer };
/** What the worker's use case (`deliverOrderEvents`) picks from, and the queue kit's core. */
export type OrderEventWorkerDeps = CoreDeps & Pick<CheckoutPorts, 'checkouts' | 'orderWebhooks' | 'orderEventQueue'> & OrderEventDeliveryPorts;

export function buildAcpPorts(db: DynamoDBDocumentClient, table: string): AcpPorts {
  return { products: new DynamoProductStore(db, table) };
}

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

/** Each app's order-event receiver and the order-events queue: what every function that changes an order and the worker share. */
function buildOrderEventPorts(opts: WiringOptions, db: DynamoDBDocumentClient, table: string): Pick<CheckoutPorts, 'orderWebhooks' | 'orderEventQueue'> {
  return {
    orderWebhooks: new DynamoOrderWebhookStore(db, table),
    // Only a function with the `order-events:send` grant has the queue's URL: a send elsewhere throws, saying so.
    orderEventQueue: new SqsOrderEventQueue(createSqsClient(opts.aws ?? {}), opts.env[ENV.orderEventsQueueUrl]),
  };
}

export function buildCheckoutPorts(opts: AcpWiringOptions, db: DynamoDBDocumentClient, table: string): CheckoutPorts {
  return {
    checkouts: new DynamoCheckoutStore(db, table),
    checkoutReader: new DynamoCheckoutReader(db, table),
    inventory: new DynamoInventoryStore(db, table),
    idempotency: new DynamoIdempotencyStore(db, table),
    payments: buildPaymentProvider(opts),
    ...buildOrderEventPorts(opts, db, table),
  };
}

export function buildOrderEventLog(db: DynamoDBDocumentClient, table: string): OrderEventLog {
  return new DynamoOrderEventLog(db, table);
}

export function buildOrderEventDeliveryPorts(opts: AcpWiringOptions, db: DynamoDBDocumentClient, table: string): OrderEventDeliveryPorts {
  return { orderEventLog: buildOrderEventLog(db, table), ...buildWebhookSealing(opts), webhookSender: buildWebhookSender(opts) };
}

export function buildAcpDeps(opts: WiringOptions, db: DynamoDBDocumentClient = createDocumentClient(opts.aws ?? {})): AcpFunctionDeps & AdminProductsDeps {
  return { ...buildAdminBaseDeps(opts, db), ...buildAcpPorts(db, opts.env[ENV.tableName]) };
}

export function buildAcpCheckoutDeps(
  opts: AcpWiringOptions,
  db: DynamoDBDocumentClient = createDocumentClient(opts.aws ?? {}),
): AcpCheckoutDeps & AdminOrdersDeps {
  const table = opts.env[ENV.tableName];
  return { ...buildAdminBaseDeps(opts, db), ...buildAcpPorts(db, table), ...buildCheckoutPorts(opts, db, table), orderEventLog: buildOrderEventLog(db, table) };
}

export function buildOrderEventWorkerDeps(opts: AcpWiringOptions): OrderEventWorkerDeps {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return {
    ...buildCoreDeps(opts, db),
    checkouts: new DynamoCheckoutStore(db, table),
    ...buildOrderEventPorts(opts, db, table),
    ...buildOrderEventDeliveryPorts(opts, db, table),
  };
}

export function buildAdminOrderWebhookDeps(opts: AcpWiringOptions, db?: DynamoDBDocumentClient): AdminOrderWebhookDeps {
  return { ...buildAcpCheckoutDeps(opts, db), ...buildWebhookSealing(opts) };
}

export const acpProductionDeps = /* @__PURE__ */ onFirstUse(buildAcpDeps);
export const acpCheckoutProductionDeps = /* @__PURE__ */ onFirstUse(buildAcpCheckoutDeps);
export const adminOrderWebhookProductionDeps = /* @__PURE__ */ onFirstUse(buildAdminOrderWebhookDeps);
export const orderEventWorkerProductionDeps = /* @__PURE__ */ onFirstUse(buildOrderEventWorkerDeps);
