/**
 * The order-events worker (area C): the sessions and their receivers, the order-events queue, the
 * order-event log, and the platform's outbound-webhook machinery (the SSRF check's resolver, the
 * pinned sender, the secret sealer: KMS on AWS, the data directory's key file locally). No payment
 * provider: the worker never charges, so its bundle carries neither Stripe nor Secrets Manager.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../platform/adapters/aws-clients';
import { ENV } from '../../platform/env';
import type { CallbackCheckDeps, SecretSealer, WebhookSender } from '../../platform/ports/outbound-webhook-ports';
import { buildCoreDeps, onFirstUse, type CoreDeps } from '../../platform/wiring/core-wiring';
import { buildWebhookSealing, buildWebhookSender, type OutboundWebhookWiringOptions } from '../../platform/wiring/outbound-webhook-wiring';
import { DynamoCheckoutStore } from '../adapters/dynamo-checkout-store';
import { DynamoOrderEventLog } from '../adapters/dynamo-order-event-log';
import type { CheckoutPorts, OrderEventLog } from '../ports/acp-ports';
import { buildOrderEventPorts } from './order-event-queue-wiring';

/** The order-events worker's seams: the outbound-webhook ones, as area D's. */
export type OrderEventWiringOptions = OutboundWebhookWiringOptions;

/** What delivering an order event needs beyond the checkout ports. */
export interface OrderEventDeliveryPorts extends CallbackCheckDeps {
  readonly orderEventLog: OrderEventLog;
  readonly secrets: SecretSealer;
  readonly webhookSender: WebhookSender;
}

/** What the worker's use case (`deliverOrderEvents`) picks from, and the queue kit's core. */
export type OrderEventWorkerDeps = CoreDeps & Pick<CheckoutPorts, 'checkouts' | 'orderWebhooks' | 'orderEventQueue'> & OrderEventDeliveryPorts;

export function buildOrderEventLog(db: DynamoDBDocumentClient, table: string): OrderEventLog {
  return new DynamoOrderEventLog(db, table);
}

export function buildOrderEventDeliveryPorts(opts: OrderEventWiringOptions, db: DynamoDBDocumentClient, table: string): OrderEventDeliveryPorts {
  return {
    orderEventLog: buildOrderEventLog(db, table),
    ...buildWebhookSealing(opts),
    webhookSender: buildWebhookSender(opts),
  };
}

export function buildOrderEventWorkerDeps(opts: OrderEventWiringOptions): OrderEventWorkerDeps {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return {
    ...buildCoreDeps(opts, db),
    checkouts: new DynamoCheckoutStore(db, table),
    ...buildOrderEventPorts(opts, db, table),
    ...buildOrderEventDeliveryPorts(opts, db, table),
  };
}

export const orderEventWorkerProductionDeps = onFirstUse(buildOrderEventWorkerDeps);
