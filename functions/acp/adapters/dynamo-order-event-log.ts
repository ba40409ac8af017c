/**
 * Where each order's event delivery stands, beside its session in the session's partition:
 *
 * - the cursor `CHECKOUT#<sessionId>` / `ORDEREVENTS`: `deliveredThrough` (every event up to that
 *   revision was delivered or dropped), `attempts` and `notBeforeUs` of the next event, and the claim of
 *   the attempt in flight (`claimedAtUs`, `claimedRevision`);
 * - the delivery log, one item per finished attempt `CHECKOUT#<sessionId>` /
 *   `ORDEREVENTLOG#<revision, 10 digits>#<attempt, 4 digits>`, which sorts newest last.
 *
 * A claim is one conditional UpdateItem: it holds only when no attempt is in flight (or the one in
 * flight was claimed before `staleBefore` by a worker that died), the cursor has not passed the
 * revision yet, and a retry's wait is over. A finish first puts its log item (idempotent: the same key
 * for the same attempt), then moves the cursor and releases the claim in one UpdateItem, unless the
 * cursor has passed that revision already (a late finish of an attempt another worker took over).
 * No transactions (docs/design.md §3): a crash between the two writes leaves the claim to go stale, and
 * the attempt is made again under the same number, whose log item it overwrites.
 */
import { PutCommand, QueryCommand, UpdateCommand, GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Micros } from '../../kernel/domain/time';
import { sendConditional, definedFields } from '../../kernel/adapters/dynamo-batch';
import type { OrderEventCursor, OrderEventLogEntry } from '../domain/order-event';
import type { OrderEventLog } from '../app/acp-ports';

const partition = (sessionId: string) => `CHECKOUT#${sessionId}`;
const cursorKey = (sessionId: string) => ({ pk: partition(sessionId), sk: 'ORDEREVENTS' });
const LOG_PREFIX = 'ORDEREVENTLOG#';
const logKey = (sessionId: string, revision: number, attempt: number) => ({
  pk: partition(sessionId),
  sk: `${LOG_PREFIX}${String(revision).padStart(10, '0')}#${String(attempt).padStart(4, '0')}`,
});

/** Attempts are kept 90 days, as area D keeps its deliveries (DynamoDB TTL; dynalite ignores it). */
const LOG_RETENTION_SECONDS = 90 * 24 * 3600;

const ENTRY_FIELDS = ['revision', 'type', 'attempt', 'attemptedAtUs', 'latencyMs', 'outcome', 'httpStatus', 'error'] as const;

const toEntry = (item: Record<string, unknown>) => definedFields<OrderEventLogEntry>(item, ENTRY_FIELDS);

export class DynamoOrderEventLog implements OrderEventLog {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async cursor(sessionId: string): Promise<OrderEventCursor> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: cursorKey(sessionId), ConsistentRead: true }));
    const item = res.Item ?? {};
    return {
      deliveredThrough: typeof item.deliveredThrough === 'number' ? item.deliveredThrough : 0,
      attempts: typeof item.attempts === 'number' ? item.attempts : 0,
      notBeforeUs: typeof item.notBeforeUs === 'number' ? item.notBeforeUs : 0,
    };
  }

  /**
   * The cursor must not have passed `revision` yet (`deliveredThrough < revision`, rather than exactly
   * `revision - 1`: an order whose app had no receiver at first has no events for its first revisions,
   * so its outbox may start above the cursor). Which event goes next is the use case's choice: the
   * lowest one in the outbox, so the order is kept.
   */
  claim(sessionId: string, revision: number, nowUs: Micros, staleBeforeUs: Micros): Promise<boolean> {
    return sendConditional(
      this.db,
      new UpdateCommand({
        TableName: this.table,
        Key: cursorKey(sessionId),
        UpdateExpression:
          'SET #type = :type, sessionId = :sessionId, claimedAtUs = :now, claimedRevision = :revision, ' +
          'deliveredThrough = if_not_exists(deliveredThrough, :zero), attempts = if_not_exists(attempts, :zero), notBeforeUs = if_not_exists(notBeforeUs, :zero)',
        ConditionExpression:
          '(attribute_not_exists(claimedAtUs) OR claimedAtUs < :stale) ' +
          'AND (attribute_not_exists(deliveredThrough) OR deliveredThrough < :revision) ' +
          'AND (attribute_not_exists(notBeforeUs) OR notBeforeUs <= :now)',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: {
          ':type': 'acp-order-event-cursor',
          ':sessionId': sessionId,
          ':now': nowUs,
          ':revision': revision,
          ':zero': 0,
          ':stale': staleBeforeUs,
        },
      }),
    );
  }

  async finish(sessionId: string, entry: OrderEventLogEntry, done: boolean, notBeforeUs: Micros): Promise<void> {
    const logged: Record<string, unknown> = {
      ...logKey(sessionId, entry.revision, entry.attempt),
      type: 'acp-order-event-attempt',
      sessionId,
      expiresAt: Math.floor(entry.attemptedAtUs / 1_000_000) + LOG_RETENTION_SECONDS,
    };
    for (const f of ENTRY_FIELDS) if (entry[f] !== undefined) logged[f] = entry[f];
    await this.db.send(new PutCommand({ TableName: this.table, Item: logged }));
    // `attempts` is set to the attempt just made (the one after the cursor's count when it was claimed),
    // so finishing the same attempt twice counts it once.
    await sendConditional(
      this.db,
      new UpdateCommand({
        TableName: this.table,
        Key: cursorKey(sessionId),
        UpdateExpression: done
          ? 'SET deliveredThrough = :revision, attempts = :zero, notBeforeUs = :zero REMOVE claimedAtUs, claimedRevision'
          : 'SET attempts = :attempt, notBeforeUs = :notBefore REMOVE claimedAtUs, claimedRevision',
        ConditionExpression: 'attribute_not_exists(deliveredThrough) OR deliveredThrough < :revision',
        ExpressionAttributeValues: done
          ? { ':revision': entry.revision, ':zero': 0 }
          : { ':revision': entry.revision, ':attempt': entry.attempt, ':notBefore': notBeforeUs },
      }),
    );
  }

  async list(sessionId: string, limit: number): Promise<OrderEventLogEntry[]> {
    const res = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': partition(sessionId), ':prefix': LOG_PREFIX },
        ScanIndexForward: false,
        ConsistentRead: true,
        Limit: limit,
      }),
    );
    return (res.Items ?? []).map(toEntry);
  }
}
