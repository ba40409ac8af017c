/**
 * One item per delivery attempt under the subscription's partition (`WHDLV#<subscription>`, sort key
 * `<period>#<revision>#<attempt>`). The item is first a claim (conditional put: one worker per
 * attempt, a stale claim is taken over) and then the finished attempt, which the delivery log lists.
 * Items expire through TTL after 90 days and go with the subscription when it is deleted.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Micros } from '../../kernel/domain/time';
import type { ClaimResult, DeliveryAttemptRecord, DeliveryKey, DeliveryLog } from '../app/release-notes-ports';
import { batchDelete, queryAll, definedFields } from '../../kernel/adapters/dynamo-batch';

const RETENTION_SECONDS = 90 * 24 * 3600;
const partition = (subscriptionId: string) => `WHDLV#${subscriptionId}`;
const itemKey = (k: DeliveryKey) => ({ pk: partition(k.subscriptionId), sk: `${k.periodId}#${k.revision}#${k.attempt}` });
const expiresAt = (atUs: Micros) => Math.floor(atUs / 1_000_000) + RETENTION_SECONDS;

const RECORD_FIELDS = [
  'subscriptionId',
  'periodId',
  'revision',
  'attempt',
  'periodStartUs',
  'periodEndUs',
  'attemptedAtUs',
  'latencyMs',
  'outcome',
  'httpStatus',
  'error',
] as const;

const toRecord = (item: Record<string, unknown>) => definedFields<DeliveryAttemptRecord>(item, RECORD_FIELDS);

export class DynamoDeliveryLog implements DeliveryLog {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async claim(key: DeliveryKey, nowUs: Micros, staleBeforeUs: Micros): Promise<ClaimResult> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...itemKey(key), type: 'webhook-attempt', ...key, state: 'claimed', claimedAtUs: nowUs, expiresAt: expiresAt(nowUs) },
          ConditionExpression: 'attribute_not_exists(pk) OR (#state = :claimed AND claimedAtUs < :stale)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':claimed': 'claimed', ':stale': staleBeforeUs },
        }),
      );
      return 'claimed';
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
    const current = await this.db.send(new GetCommand({ TableName: this.table, Key: itemKey(key), ConsistentRead: true }));
    return current.Item?.state === 'done' ? 'done' : 'busy';
  }

  async complete(record: DeliveryAttemptRecord): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...itemKey(record), type: 'webhook-attempt', ...record, state: 'done', expiresAt: expiresAt(record.attemptedAtUs) },
      }),
    );
  }

  async list(subscriptionId: string, limit: number): Promise<DeliveryAttemptRecord[]> {
    const done = (await this.items(subscriptionId)).filter((i) => i.state === 'done').map(toRecord);
    return done.sort((a, b) => b.attemptedAtUs - a.attemptedAtUs || b.attempt - a.attempt).slice(0, limit);
  }

  async removeAll(subscriptionId: string): Promise<void> {
    const items = await this.items(subscriptionId);
    await batchDelete(
      this.db,
      this.table,
      items.map((i) => ({ pk: i.pk, sk: i.sk })),
    );
  }

  private items(subscriptionId: string): Promise<Record<string, unknown>[]> {
    return queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': partition(subscriptionId) },
      ConsistentRead: true,
    });
  }
}
