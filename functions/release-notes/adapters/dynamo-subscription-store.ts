/**
 * Webhook subscriptions: the subscription item by id (read by every delivery), a pointer by the
 * secret's SHA-256 (list and delete), and the fan-out's pass over all subscriptions in gsi1
 * (`WHSUBS`, created_at + id). The pointer is written last and removed first, so a secret finds a
 * subscription only while it is complete.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { WebhookSubscription } from '../domain/webhook-subscription';
import type { SubscriptionPage, SubscriptionStore } from '../app/release-notes-ports';
import { decodeCursor, encodeCursor, timeIdKey } from '../../kernel/adapters/dynamo-batch';

const FANOUT_PK = 'WHSUBS';
const key = (id: string) => ({ pk: `WHSUB#${id}`, sk: 'WHSUB' });
const secretKey = (hash: string) => ({ pk: `WHSECRET#${hash}`, sk: 'WHSECRET' });

/**
 * The items one subscription is stored as, in write order. Exported so that tools which seed many
 * subscriptions at once (the fan-out benchmark) write exactly what `create` writes.
 */
export function subscriptionItems(sub: WebhookSubscription): Record<string, unknown>[] {
  return [
    {
      ...key(sub.id),
      type: 'webhook-subscription',
      ...sub,
      areas: [...sub.areas],
      categories: [...sub.categories],
      gsi1pk: FANOUT_PK,
      gsi1sk: timeIdKey(sub.createdAtUs, sub.id),
    },
    { ...secretKey(sub.secretHash), type: 'webhook-secret', subscriptionId: sub.id },
  ];
}

function toSubscription(item: Record<string, unknown>): WebhookSubscription {
  const { id, callbackUrl, areas, categories, isActive, secretHash, secretLast4, sealedSecret, createdAtUs, updatedAtUs } =
    item as unknown as WebhookSubscription;
  return { id, callbackUrl, areas: areas ?? [], categories: categories ?? [], isActive, secretHash, secretLast4, sealedSecret, createdAtUs, updatedAtUs };
}

export class DynamoSubscriptionStore implements SubscriptionStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(subscription: WebhookSubscription): Promise<void> {
    for (const Item of subscriptionItems(subscription)) {
      await this.db.send(new PutCommand({ TableName: this.table, Item, ConditionExpression: 'attribute_not_exists(pk)' }));
    }
  }

  async get(id: string): Promise<WebhookSubscription | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: key(id), ConsistentRead: true }));
    return res.Item ? toSubscription(res.Item) : undefined;
  }

  async findBySecretHash(hash: string): Promise<WebhookSubscription | undefined> {
    const ptr = await this.db.send(new GetCommand({ TableName: this.table, Key: secretKey(hash), ConsistentRead: true }));
    const id = ptr.Item?.subscriptionId as string | undefined;
    return id ? this.get(id) : undefined;
  }

  async remove(subscription: WebhookSubscription): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: secretKey(subscription.secretHash) }));
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: key(subscription.id) }));
  }

  async pageActive(limit: number, cursor?: string): Promise<SubscriptionPage> {
    const res = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': FANOUT_PK },
        ExclusiveStartKey: decodeCursor(cursor),
        Limit: limit,
      }),
    );
    const next = encodeCursor(res.LastEvaluatedKey);
    return { subscriptions: (res.Items ?? []).map(toSubscription).filter((s) => s.isActive), ...(next ? { cursor: next } : {}) };
  }
}
