/**
 * Consumers of an app: the item, an email pointer for known consumers (one consumer per app and email),
 * gsi2 for the app's consumers, and the sparse gsi4 of anonymous consumers by recorded activity, which
 * the retention job walks oldest first.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Consumer } from '../domain/consumer';
import { DomainError } from '../../kernel/domain/errors';
import type { ConsumerStore } from '../app/conversation-ports';
import { timeIdKey } from '../../kernel/adapters/dynamo-batch';

const key = (id: string) => ({ pk: `CONSUMER#${id}`, sk: 'CONSUMER' });
const emailKey = (appId: string, email: string) => ({ pk: `CONSEMAIL#${appId}#${email.toLowerCase()}`, sk: 'CONSEMAIL' });
const ANON = 'ANONCONS';

function toConsumer(item: Record<string, unknown>): Consumer {
  const { id, orgId, appId, email, createdAtUs, lastActiveAtUs } = item as unknown as Consumer;
  return { id, orgId, appId, email: email ?? null, createdAtUs, lastActiveAtUs };
}

export class DynamoConsumerStore implements ConsumerStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(c: Consumer): Promise<void> {
    if (c.email !== null) await this.claimEmail(c.appId, c.email, c.id);
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...key(c.id),
          type: 'consumer',
          ...c,
          gsi2pk: `APPCONS#${c.appId}`,
          gsi2sk: timeIdKey(c.createdAtUs, c.id),
          ...(c.email === null ? { gsi4pk: ANON, gsi4sk: timeIdKey(c.lastActiveAtUs, c.id) } : {}),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  /**
   * Points the app's email at the new consumer. A pointer left by a create that crashed before its
   * consumer item was written points at nothing: it is taken over instead of blocking the email.
   */
  private async claimEmail(appId: string, email: string, consumerId: string): Promise<void> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...emailKey(appId, email), type: 'consumer-email', consumerId },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return;
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
    const ptr = await this.db.send(new GetCommand({ TableName: this.table, Key: emailKey(appId, email), ConsistentRead: true }));
    const owner = ptr.Item?.consumerId as string | undefined;
    if (owner && (await this.get(owner))) throw new DomainError('conflict', 'A consumer with this email already exists in the app');
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...emailKey(appId, email), type: 'consumer-email', consumerId },
        ConditionExpression: 'consumerId = :stale',
        ExpressionAttributeValues: { ':stale': owner },
      }),
    );
  }

  async get(id: string): Promise<Consumer | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: key(id), ConsistentRead: true }));
    return res.Item ? toConsumer(res.Item) : undefined;
  }

  async findByEmail(appId: string, email: string): Promise<Consumer | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: emailKey(appId, email), ConsistentRead: true }));
    const consumerId = res.Item?.consumerId as string | undefined;
    return consumerId ? this.get(consumerId) : undefined;
  }

  async markActive(id: string, atUs: number): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(id),
          // Only anonymous consumers carry gsi4pk, so only they are indexed; the new sort key keeps the
          // retention walk in activity order.
          UpdateExpression: 'SET lastActiveAtUs = :at, gsi4sk = :pos',
          ConditionExpression: 'attribute_exists(pk) AND lastActiveAtUs < :at',
          ExpressionAttributeValues: { ':at': atUs, ':pos': timeIdKey(atUs, id) },
        }),
      );
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
  }

  async remove(id: string): Promise<void> {
    const current = await this.get(id);
    if (!current) return;
    // The pointer goes first: a crash in between leaves a consumer a retry still finds, never a
    // pointer that blocks a new consumer with the same email.
    if (current.email !== null) {
      await this.db.send(new DeleteCommand({ TableName: this.table, Key: emailKey(current.appId, current.email) }));
    }
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: key(id) }));
  }

  async listByApp(appId: string, limit: number): Promise<Consumer[]> {
    const res = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': `APPCONS#${appId}` },
        Limit: limit,
      }),
    );
    return (res.Items ?? []).map(toConsumer);
  }

  async listAnonymousInactiveBefore(beforeUs: number, limit: number): Promise<Consumer[]> {
    const res = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: 'gsi4',
        KeyConditionExpression: 'gsi4pk = :pk AND gsi4sk < :before',
        ExpressionAttributeValues: { ':pk': ANON, ':before': timeIdKey(beforeUs, '') },
        Limit: limit,
      }),
    );
    return (res.Items ?? []).map(toConsumer);
  }
}
