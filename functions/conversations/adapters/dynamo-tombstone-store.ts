/**
 * Tombstones keyed by resource, so a retried deletion finds its first tombstone instead of writing a
 * second one; listed through gsi1 (by org) and gsi2 (by org and cause) in (deleted_at, id) order.
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Tombstone } from '../domain/tombstone';
import type { TombstoneStore } from '../app/conversation-ports';
import { timeIdKey } from '../../kernel/adapters/dynamo-batch';

const PENDING = 'TOMBPENDING';
const key = (t: Pick<Tombstone, 'resourceType' | 'resourceId'>) => ({ pk: `TOMB#${t.resourceType}#${t.resourceId}`, sk: 'TOMB' });

export function toTombstone(item: Record<string, unknown>): Tombstone {
  const { id, orgId, resourceType, resourceId, cause, deletedAtUs } = item as unknown as Tombstone;
  return { id, orgId, resourceType, resourceId, cause, deletedAtUs };
}

export class DynamoTombstoneStore implements TombstoneStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async putOnce(t: Tombstone): Promise<Tombstone> {
    const position = timeIdKey(t.deletedAtUs, t.id);
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            ...key(t),
            type: 'tombstone',
            ...t,
            gsi1pk: `ORGTOMB#${t.orgId}`,
            gsi1sk: position,
            gsi2pk: `ORGTOMBCAUSE#${t.orgId}#${t.cause}`,
            gsi2sk: position,
            gsi4pk: PENDING,
            gsi4sk: position,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return t;
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
      const res = await this.db.send(new GetCommand({ TableName: this.table, Key: key(t), ConsistentRead: true }));
      if (!res.Item) throw err;
      return toTombstone(res.Item);
    }
  }

  async restamp(t: Tombstone, deletedAtUs: number, id: string): Promise<Tombstone> {
    const position = timeIdKey(deletedAtUs, id);
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: key(t),
        UpdateExpression: 'SET deletedAtUs = :at, id = :id, gsi1sk = :pos, gsi2sk = :pos',
        ConditionExpression: 'attribute_exists(pk) AND deletedAtUs < :at',
        ExpressionAttributeValues: { ':at': deletedAtUs, ':id': id, ':pos': position },
      }),
    );
    return { ...t, deletedAtUs, id };
  }

  async markRemoved(t: Pick<Tombstone, 'resourceType' | 'resourceId'>): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: key(t),
        UpdateExpression: 'REMOVE gsi4pk, gsi4sk',
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
  }

  async listPendingRemoval(beforeUs: number, limit: number): Promise<Tombstone[]> {
    const res = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: 'gsi4',
        KeyConditionExpression: 'gsi4pk = :pk AND gsi4sk < :before',
        ExpressionAttributeValues: { ':pk': PENDING, ':before': timeIdKey(beforeUs, '') },
        Limit: limit,
      }),
    );
    return (res.Items ?? []).map(toTombstone);
  }

  async find(resourceType: Tombstone['resourceType'], resourceId: string): Promise<Tombstone | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: key({ resourceType, resourceId }), ConsistentRead: true }));
    return res.Item ? toTombstone(res.Item) : undefined;
  }
}
