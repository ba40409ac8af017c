import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { UsageRow } from '../domain/usage';
import type { UsageStore } from '../app/conversation-ports';
import { fieldsOrNull, timeIdKey } from '../../kernel/adapters/dynamo-batch';

/** Usage ids are integers from one atomic counter; padded to 16 digits they sort as numbers. */
export const usageIdKey = (id: number) => String(id).padStart(16, '0');

const USAGE_FIELDS = [
  'id',
  'orgId',
  'appId',
  'sessionId',
  'consumerId',
  'model',
  'source',
  'inputTokens',
  'outputTokens',
  'cacheReadInputTokens',
  'cacheCreationInputTokens',
  'costUsd',
  'createdAtUs',
] as const;

export const usageFromItem = (item: Record<string, unknown>) => fieldsOrNull<UsageRow>(item, USAGE_FIELDS);

export class DynamoUsageStore implements UsageStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async nextId(): Promise<number> {
    const res = await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { pk: 'COUNTER#usage', sk: 'COUNTER' },
        UpdateExpression: 'ADD #v :one',
        ExpressionAttributeNames: { '#v': 'value' },
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(res.Attributes?.value);
  }

  async put(row: UsageRow): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          pk: `USAGE#${usageIdKey(row.id)}`,
          sk: 'USAGE',
          type: 'usage',
          ...row,
          gsi1pk: `ORGUSAGE#${row.orgId}`,
          gsi1sk: timeIdKey(row.createdAtUs, usageIdKey(row.id)),
        },
      }),
    );
  }

  async restamp(row: UsageRow, createdAtUs: number): Promise<UsageRow> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { pk: `USAGE#${usageIdKey(row.id)}`, sk: 'USAGE' },
        UpdateExpression: 'SET createdAtUs = :at, gsi1sk = :pos',
        ConditionExpression: 'attribute_exists(pk) AND createdAtUs < :at',
        ExpressionAttributeValues: { ':at': createdAtUs, ':pos': timeIdKey(createdAtUs, usageIdKey(row.id)) },
      }),
    );
    return { ...row, createdAtUs };
  }
}
