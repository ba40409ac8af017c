/**
 * Each app's order-event receiver: one item `ACPORDERWEBHOOK#<appId>` / `ACPORDERWEBHOOK` holding the
 * receiver URL and the signing secret sealed under the app's binding (never the secret itself).
 */
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { OrderWebhook, OrderWebhookStore } from '../app/acp-ports';

export const orderWebhookKey = (appId: string) => ({ pk: `ACPORDERWEBHOOK#${appId}`, sk: 'ACPORDERWEBHOOK' });

const FIELDS = ['appId', 'orgId', 'url', 'sealedSecret', 'createdAtUs', 'updatedAtUs'] as const;

export function orderWebhookFromItem(item: Record<string, unknown>): OrderWebhook {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) out[f] = item[f];
  return out as unknown as OrderWebhook;
}

export class DynamoOrderWebhookStore implements OrderWebhookStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(appId: string): Promise<OrderWebhook | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: orderWebhookKey(appId), ConsistentRead: true }));
    return res.Item ? orderWebhookFromItem(res.Item) : undefined;
  }

  async put(webhook: OrderWebhook): Promise<void> {
    const item: Record<string, unknown> = { ...orderWebhookKey(webhook.appId), type: 'acp-order-webhook' };
    for (const f of FIELDS) item[f] = webhook[f];
    await this.db.send(new PutCommand({ TableName: this.table, Item: item }));
  }

  async remove(appId: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: orderWebhookKey(appId) }));
  }
}
