import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { UsageRow } from '../domain/usage';
import type { UsageStore } from '../app/conversation-ports';
import { fieldsOrNull, timeIdKey } from '../../kernel/adapters/dynamo-batch';

/** Usage ids are integers from one atomic counter (in blocks); padded to 16 digits they sort as numbers. */
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

/** How many usage ids a process takes from the counter at once. */
const USAGE_ID_BLOCK = 32;

export const usageFromItem = (item: Record<string, unknown>) => fieldsOrNull<UsageRow>(item, USAGE_FIELDS);

/** The item of a usage row (also put beside a chat turn's messages, in the turn's one batch). */
export function usageItem(row: UsageRow): Record<string, unknown> {
  return {
    pk: `USAGE#${usageIdKey(row.id)}`,
    sk: 'USAGE',
    type: 'usage',
    ...row,
    gsi1pk: `ORGUSAGE#${row.orgId}`,
    gsi1sk: timeIdKey(row.createdAtUs, usageIdKey(row.id)),
  };
}

export class DynamoUsageStore implements UsageStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** The ids this process took from the counter and has not handed out yet: [next, last]. */
  private block = { next: 1, last: 0 };
  private refill: Promise<void> | undefined;

  /**
   * A usage id no other row has. Ids are taken from the counter USAGE_ID_BLOCK at a time, so a turn
   * rarely waits on the counter; ids are unique integers, not dense (a process that stops leaves the
   * rest of its block unused), and the export orders usage by time first (`created_at`, then `id`).
   */
  async nextId(): Promise<number> {
    while (this.block.next > this.block.last) {
      this.refill ??= this.takeBlock().finally(() => {
        this.refill = undefined;
      });
      await this.refill;
    }
    return this.block.next++;
  }

  private async takeBlock(): Promise<void> {
    const res = await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { pk: 'COUNTER#usage', sk: 'COUNTER' },
        UpdateExpression: 'ADD #v :n',
        ExpressionAttributeNames: { '#v': 'value' },
        ExpressionAttributeValues: { ':n': USAGE_ID_BLOCK },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const last = Number(res.Attributes?.value);
    this.block = { next: last - USAGE_ID_BLOCK + 1, last };
  }

  async put(row: UsageRow): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: usageItem(row),
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
