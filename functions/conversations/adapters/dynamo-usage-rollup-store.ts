/**
 * The usage buckets in the platform's table, one partition per org and kind, sorted by period:
 * `USAGEHOUR#<org>` / `USAGEDAY#<org>` with sk `<period>#<app>#<model>` (the bucket's id), so a range of
 * days is one Query. The rollup's progress is `USAGEROLLUP#<org>`, and the job's place in the org list
 * `USAGEROLLUP` / `ORGCURSOR`. Bucket reads are consistent: the day sum reads hour buckets it just wrote.
 */
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { padMicros, queryAll, queryPages } from '../../kernel/adapters/dynamo-batch';
import type { Micros } from '../../kernel/domain/time';
import type { RollupProgress, UsageRollupStore } from '../app/usage-rollup-ports';
import { bucketId, type UsageBucket } from '../domain/usage-buckets';
import type { UsageRow } from '../domain/usage';
import { usageFromItem } from './dynamo-usage-store';

const hourPk = (orgId: string) => `USAGEHOUR#${orgId}`;
const dayPk = (orgId: string) => `USAGEDAY#${orgId}`;
const progressKey = (orgId: string) => ({ pk: `USAGEROLLUP#${orgId}`, sk: 'PROGRESS' });
const CURSOR_KEY = { pk: 'USAGEROLLUP', sk: 'ORGCURSOR' };

const BUCKET_FIELDS = [
  'period',
  'appId',
  'model',
  'calls',
  'inputTokens',
  'outputTokens',
  'cacheReadInputTokens',
  'cacheCreationInputTokens',
  'costUsd',
] as const;

function bucketFromItem(item: Record<string, unknown>): UsageBucket {
  const out: Record<string, unknown> = {};
  for (const f of BUCKET_FIELDS) out[f] = item[f];
  return out as unknown as UsageBucket;
}

export class DynamoUsageRollupStore implements UsageRollupStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async progress(orgId: string): Promise<RollupProgress | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: progressKey(orgId), ConsistentRead: true }));
    if (!res.Item) return undefined;
    const { finalUntilUs, firstOpenDay, openBuckets, countedUntilUs } = res.Item as RollupProgress;
    return { finalUntilUs, firstOpenDay, openBuckets: openBuckets ?? [], countedUntilUs };
  }

  async saveProgress(orgId: string, progress: RollupProgress): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: { ...progressKey(orgId), type: 'usage-rollup', orgId, ...progress } }));
  }

  async *usageRows(orgId: string, fromUs: Micros, toUs: Micros): AsyncIterable<readonly UsageRow[]> {
    if (toUs <= fromUs) return;
    // '#' sorts below every id and '~' above: the range holds every row of [fromUs, toUs).
    const pages = queryPages(this.db, {
      TableName: this.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :lo AND :hi',
      ExpressionAttributeValues: { ':pk': `ORGUSAGE#${orgId}`, ':lo': `${padMicros(fromUs)}#`, ':hi': `${padMicros(toUs - 1)}#~` },
    });
    for await (const page of pages) yield page.items.map(usageFromItem);
  }

  async putHourBucket(orgId: string, bucket: UsageBucket): Promise<void> {
    await this.putBucket(hourPk(orgId), 'usage-hour', orgId, bucket);
  }

  async deleteHourBucket(orgId: string, id: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: { pk: hourPk(orgId), sk: id } }));
  }

  async putDayBucket(orgId: string, bucket: UsageBucket): Promise<void> {
    await this.putBucket(dayPk(orgId), 'usage-day', orgId, bucket);
  }

  hourBuckets(orgId: string, fromDay: string, toDay: string): Promise<UsageBucket[]> {
    // Hour periods are `YYYY-MM-DDTHH` and '~' sorts above every digit: [<from>T, <to>T~] holds every hour of those days.
    return this.buckets(hourPk(orgId), `${fromDay}T`, `${toDay}T~`);
  }

  dayBuckets(orgId: string, fromDay: string, toDay: string): Promise<UsageBucket[]> {
    return this.buckets(dayPk(orgId), `${fromDay}#`, `${toDay}#~`);
  }

  async orgCursor(): Promise<string | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: CURSOR_KEY, ConsistentRead: true }));
    return typeof res.Item?.after === 'string' ? res.Item.after : undefined;
  }

  async saveOrgCursor(after: string | undefined): Promise<void> {
    await this.db.send(
      new PutCommand({ TableName: this.table, Item: { ...CURSOR_KEY, type: 'usage-rollup-cursor', ...(after === undefined ? {} : { after }) } }),
    );
  }

  private async putBucket(pk: string, type: string, orgId: string, bucket: UsageBucket): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: { pk, sk: bucketId(bucket), type, orgId, ...bucket } }));
  }

  private async buckets(pk: string, lo: string, hi: string): Promise<UsageBucket[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
      ExpressionAttributeValues: { ':pk': pk, ':lo': lo, ':hi': hi },
      ConsistentRead: true,
    });
    return items.map(bucketFromItem);
  }
}
