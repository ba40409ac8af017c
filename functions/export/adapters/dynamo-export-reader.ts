/**
 * The org export lists as keyset queries over the GSIs (docs/adr/0004): one Query per page, bounded
 * by the visibility cutoff above and the caller's lower bound below, continuing strictly below the
 * cursor's (sort value, id). A post-filter (`started_after`/`started_before`) keeps reading until the
 * page is full or a read budget is spent, then hands back the last position it examined.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { KeysetPosition } from '../domain/cursor';
import type { Session } from '../../conversations/domain/session';
import type { Tombstone } from '../../conversations/domain/tombstone';
import type { UsageRow } from '../../conversations/domain/usage';
import type { ExportReader, KeysetPage, KeysetWindow } from '../app/export-ports';
import { padMicros, timeIdKey, queryPages } from '../../kernel/adapters/dynamo-batch';
import { sessionFromItem } from '../../conversations/adapters/dynamo-session-items';
import { toTombstone } from '../../conversations/adapters/dynamo-tombstone-store';
import { usageFromItem } from '../../conversations/adapters/dynamo-usage-store';

/** Index reads one page may spend on a post-filter before it returns what it has. */
const POST_FILTER_READ_BUDGET = 8;

interface KeysetQuery {
  readonly index: 'gsi1' | 'gsi2';
  readonly partition: string;
  readonly window: KeysetWindow;
  readonly filter?: { readonly expression: string; readonly values: Record<string, unknown> };
}

function positionOf(sortKey: string): KeysetPosition {
  const cut = sortKey.indexOf('#');
  return { sortUs: Number(sortKey.slice(0, cut)), id: sortKey.slice(cut + 1) };
}

export class DynamoExportReader implements ExportReader {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async sessions(
    orgId: string,
    window: KeysetWindow,
    filter: { appId?: string; startedFromUs?: number; startedBeforeUs?: number },
  ): Promise<KeysetPage<Session>> {
    const conditions: string[] = [];
    const values: Record<string, unknown> = {};
    if (filter.startedFromUs !== undefined) {
      conditions.push('startedAtUs >= :startedFrom');
      values[':startedFrom'] = filter.startedFromUs;
    }
    if (filter.startedBeforeUs !== undefined) {
      conditions.push('startedAtUs < :startedBefore');
      values[':startedBefore'] = filter.startedBeforeUs;
    }
    if (filter.appId !== undefined) {
      // The app index is not keyed by org: the org condition keeps another org's app out.
      conditions.push('orgId = :org');
      values[':org'] = orgId;
    }
    const page = await this.keyset({
      index: filter.appId !== undefined ? 'gsi2' : 'gsi1',
      partition: filter.appId !== undefined ? `APPSESS#${filter.appId}` : `ORGSESS#${orgId}`,
      window,
      ...(conditions.length ? { filter: { expression: conditions.join(' AND '), values } } : {}),
    });
    return { ...page, rows: page.rows.map(sessionFromItem) };
  }

  async usage(orgId: string, window: KeysetWindow): Promise<KeysetPage<UsageRow>> {
    const page = await this.keyset({ index: 'gsi1', partition: `ORGUSAGE#${orgId}`, window });
    return { ...page, rows: page.rows.map(usageFromItem) };
  }

  async tombstones(orgId: string, window: KeysetWindow, filter: { cause?: string }): Promise<KeysetPage<Tombstone>> {
    const page = await this.keyset(
      filter.cause !== undefined
        ? { index: 'gsi2', partition: `ORGTOMBCAUSE#${orgId}#${filter.cause}`, window }
        : { index: 'gsi1', partition: `ORGTOMB#${orgId}`, window },
    );
    return { ...page, rows: page.rows.map(toTombstone) };
  }

  private async keyset(q: KeysetQuery): Promise<KeysetPage<Record<string, unknown>>> {
    const { window } = q;
    const skAttr = q.index === 'gsi1' ? 'gsi1sk' : 'gsi2sk';
    // '#' sorts below every id character, '~' above: [lower#, upper#~] holds every id of those microseconds.
    const lo = `${padMicros(window.lowerUs ?? 0)}#`;
    const visibleHi = `${padMicros(window.upperUs)}#~`;
    const afterKey = window.after ? timeIdKey(window.after.sortUs, window.after.id) : undefined;
    const hi = afterKey !== undefined && afterKey < visibleHi ? afterKey : visibleHi;
    if (hi < lo) return { rows: [], hasMore: false, ...(window.after ? { last: window.after } : {}) };

    const rows: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    let reads = 0;
    let lastExamined: string | undefined;
    const pages = queryPages(this.db, {
      TableName: this.table,
      IndexName: q.index,
      KeyConditionExpression: `${q.index}pk = :pk AND ${skAttr} BETWEEN :lo AND :hi`,
      ...(q.filter ? { FilterExpression: q.filter.expression } : {}),
      ExpressionAttributeValues: { ':pk': q.partition, ':lo': lo, ':hi': hi, ...(q.filter?.values ?? {}) },
      ScanIndexForward: false,
      // One more than the page tells whether there is more; one more again covers the row at the
      // cursor itself, which BETWEEN includes and the page skips.
      Limit: window.limit + 2,
    });
    for await (const page of pages) {
      reads++;
      for (const item of page.items) {
        if (item[skAttr] !== afterKey) rows.push(item);
      }
      start = page.next;
      if (start) lastExamined = start[skAttr] as string;
      if (rows.length > window.limit || reads >= (q.filter ? POST_FILTER_READ_BUDGET : Infinity)) break;
    }

    if (rows.length > window.limit) {
      const page = rows.slice(0, window.limit);
      return { rows: page, hasMore: true, last: positionOf(page[page.length - 1]![skAttr] as string) };
    }
    if (start && lastExamined !== undefined) {
      // The read budget ran out before the page filled: continue below the last row examined.
      return { rows, hasMore: true, last: positionOf(lastExamined) };
    }
    const tail = rows[rows.length - 1];
    return { rows, hasMore: false, ...(tail ? { last: positionOf(tail[skAttr] as string) } : window.after ? { last: window.after } : {}) };
  }
}
