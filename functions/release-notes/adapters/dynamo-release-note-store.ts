/**
 * Release-note periods in one base-table partition (`RELEASENOTES`), sorted by (periodStart,
 * periodEnd, id): the feed and the backfill read it with one strongly consistent Query, so a period
 * is in the feed the moment `put` returns (no GSI lag). A pointer item by id serves the delivery worker.
 * The partition is small (a few periods a month); its read ceiling is in docs/adr/0011.
 */
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ReleasePeriod } from '../domain/release-notes';
import type { ReleaseNoteStore } from '../app/release-notes-ports';
import { padMicros, queryAll } from '../../kernel/adapters/dynamo-batch';

const FEED_PK = 'RELEASENOTES';
const sortKey = (p: Pick<ReleasePeriod, 'id' | 'periodStartUs' | 'periodEndUs'>) => `${padMicros(p.periodStartUs)}#${padMicros(p.periodEndUs)}#${p.id}`;
const pointerKey = (id: string) => ({ pk: `RNPERIOD#${id}`, sk: 'RNPERIOD' });

function toPeriod(item: Record<string, unknown>): ReleasePeriod {
  const { id, periodStartUs, periodEndUs, title, markdown, items, revision, publishedAtUs } = item as unknown as ReleasePeriod;
  return { id, periodStartUs, periodEndUs, title, markdown, items, revision, publishedAtUs };
}

export class DynamoReleaseNoteStore implements ReleaseNoteStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async put(period: ReleasePeriod): Promise<void> {
    const { id, periodStartUs, periodEndUs, title, markdown, items, revision, publishedAtUs } = period;
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          pk: FEED_PK,
          sk: sortKey(period),
          type: 'release-period',
          id,
          periodStartUs,
          periodEndUs,
          title,
          markdown,
          items: items.map((i) => ({ ...i })),
          revision,
          publishedAtUs,
        },
      }),
    );
    await this.db.send(new PutCommand({ TableName: this.table, Item: { ...pointerKey(id), type: 'release-period-id', sk2: sortKey(period) } }));
  }

  async get(id: string): Promise<ReleasePeriod | undefined> {
    const ptr = await this.db.send(new GetCommand({ TableName: this.table, Key: pointerKey(id), ConsistentRead: true }));
    const sk = ptr.Item?.sk2 as string | undefined;
    if (!sk) return undefined;
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: { pk: FEED_PK, sk }, ConsistentRead: true }));
    return res.Item ? toPeriod(res.Item) : undefined;
  }

  async listNewestFirst(): Promise<ReleasePeriod[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': FEED_PK },
      ScanIndexForward: false,
      ConsistentRead: true,
    });
    return items.map(toPeriod);
  }
}
