/**
 * Each app's order-event receiver and the order-events queue: what every function that changes an
 * order (and so may append and ask for the delivery of its event) and the order-events worker share.
 * A module of its own, so the worker's bundle carries none of the checkout's payment provider.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createSqsClient } from '../../platform/adapters/aws-queue-clients';
import { ENV } from '../../platform/env';
import type { WiringOptions } from '../../platform/wiring/core-wiring';
import { DynamoOrderWebhookStore } from '../adapters/dynamo-order-webhook-store';
import { SqsOrderEventQueue } from '../adapters/sqs-order-event-queue';
import type { CheckoutPorts } from '../ports/acp-ports';

export function buildOrderEventPorts(opts: WiringOptions, db: DynamoDBDocumentClient, table: string): Pick<CheckoutPorts, 'orderWebhooks' | 'orderEventQueue'> {
  return {
    orderWebhooks: new DynamoOrderWebhookStore(db, table),
    // Only a function with the `order-events:send` grant has the queue's URL: a send elsewhere throws, saying so.
    orderEventQueue: new SqsOrderEventQueue(createSqsClient(opts.aws ?? {}), opts.env[ENV.orderEventsQueueUrl]),
  };
}
