/**
 * A checkout request's reads in one BatchGetItem: the app, the session, the products and the app's
 * order-event receiver are independent items, so one consistent batch replaces a GetItem each.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { appKey, appFromItem } from '../../tenancy/adapters/dynamo-app-store';
import { batchGetConsistent } from '../../kernel/adapters/dynamo-batch';
import type { CheckoutReader, CheckoutSnapshot } from '../app/acp-ports';
import type { Product } from '../domain/product';
import { checkoutFromItem, checkoutKey } from './dynamo-checkout-store';
import { orderWebhookFromItem, orderWebhookKey } from './dynamo-order-webhook-store';
import { productFromItem, productKey } from './dynamo-product-store';

export class DynamoCheckoutReader implements CheckoutReader {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async read(input: Parameters<CheckoutReader['read']>[0]): Promise<CheckoutSnapshot> {
    const productIds = input.productIds ?? [];
    const keys = [
      appKey(input.appId),
      ...(input.sessionId !== undefined ? [checkoutKey(input.sessionId)] : []),
      ...productIds.map(productKey),
      ...(input.orderWebhook ? [orderWebhookKey(input.appId)] : []),
    ];
    const item = await batchGetConsistent(this.db, this.table, keys);
    const decoded = <T>(found: Record<string, unknown> | undefined, decode: (item: Record<string, unknown>) => T) => (found ? decode(found) : undefined);
    return {
      app: decoded(item(appKey(input.appId)), appFromItem),
      session: input.sessionId !== undefined ? (decoded(item(checkoutKey(input.sessionId)), checkoutFromItem) ?? null) : undefined,
      products: new Map<string, Product | undefined>(productIds.map((id) => [id, decoded(item(productKey(id)), productFromItem)])),
      orderWebhook: input.orderWebhook ? (decoded(item(orderWebhookKey(input.appId)), orderWebhookFromItem) ?? null) : undefined,
    };
  }
}
