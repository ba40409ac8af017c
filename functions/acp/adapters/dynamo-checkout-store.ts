/**
 * Checkout sessions (`CHECKOUT#<id>` / `CHECKOUT`), each write conditioned on the version it read. An
 * order's outbox lives in its session item as a map by revision (`orderEvents`), so an order change and
 * its event are one item write.
 * A sale also writes a pointer `ORDER#<orderId>` / `ORDER` → session id, before the session (the
 * pointer alone names no order: a read through it checks the session holds that order).
 */
import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CheckoutSession } from '../domain/checkout';
import { owedRestocks, pendingRefund } from '../domain/order';
import type { PendingOrderEvent } from '../domain/order-event';
import type { CheckoutStore, OrderPage } from '../app/acp-ports';
import { badRequest } from '../../kernel/domain/errors';
import { isUuid } from '../../kernel/domain/ids';
import { sendConditional, timeIdKey } from '../../kernel/adapters/dynamo-batch';

export const checkoutKey = (id: string) => ({ pk: `CHECKOUT#${id}`, sk: 'CHECKOUT' });
const FIELDS = [
  'id',
  'orgId',
  'appId',
  'status',
  'currency',
  'lines',
  'taxRateBps',
  'buyerEmail',
  'messages',
  'order',
  'completion',
  'orderEvents',
  'details',
  'createdAtUs',
  'updatedAtUs',
  'expiresAtUs',
  'version',
] as const;

export function checkoutFromItem(item: Record<string, unknown>): CheckoutSession {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) out[f] = item[f] ?? null;
  out.details ??= {};
  // Sessions stored before tax existed were priced without it.
  out.taxRateBps ??= 0;
  const events = item.orderEvents as Record<string, PendingOrderEvent> | undefined;
  if (events && Object.keys(events).length) out.orderEvents = Object.values(events).sort((a, b) => a.revision - b.revision);
  else delete out.orderEvents;
  return out as unknown as CheckoutSession;
}

/** Sessions whose complete owes work, by claim time (the sparse gsi4 queue of the recovery job). */
const OWING = 'CHECKOUTOWING';

const revisionKey = (revision: number) => `r${revision}`;

/** Since when the session owes work (a complete, a refund, undelivered events), or undefined. */
function owingSince(s: CheckoutSession): number | undefined {
  const since = [
    s.completion?.startedAtUs,
    s.order ? pendingRefund(s.order)?.occurredAtUs : undefined,
    s.order ? owedRestocks(s.order)[0]?.occurredAtUs : undefined,
    s.orderEvents?.[0]?.createdAtUs,
  ].filter((t): t is number => typeof t === 'number');
  return since.length ? Math.min(...since) : undefined;
}

/**
 * A completed session is listed under its app's orders (gsi2 `APPORDERS#<appId>`, by order time); one
 * that owes work (a complete, a refund, undelivered order events) is on gsi4 until it is done.
 */
const itemOf = (s: CheckoutSession) => {
  const { orderEvents, ...rest } = s;
  const owing = owingSince(s);
  return {
    ...checkoutKey(s.id),
    type: 'checkout',
    ...rest,
    lines: [...s.lines],
    messages: [...s.messages],
    ...(orderEvents?.length ? { orderEvents: Object.fromEntries(orderEvents.map((e) => [revisionKey(e.revision), e])) } : {}),
    ...(s.order ? { gsi2pk: `APPORDERS#${s.appId}`, gsi2sk: timeIdKey(s.order.createdAtUs, s.order.id) } : {}),
    ...(owing !== undefined ? { gsi4pk: OWING, gsi4sk: timeIdKey(owing, s.id) } : {}),
  };
};

/** A page's cursor: the last order's place in its app's list (order time, order id), opaque to callers. */
const encodeOrderPosition = (s: CheckoutSession) => Buffer.from(JSON.stringify([s.order!.createdAtUs, s.order!.id]), 'utf8').toString('base64url');

function decodeOrderPosition(cursor: string): string {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && Number.isSafeInteger(value[0]) && value[0] >= 0 && typeof value[1] === 'string' && isUuid(value[1]))
      return timeIdKey(value[0], value[1]);
  } catch {
    // falls through to the refusal below
  }
  throw badRequest('Invalid cursor');
}

const orderKey = (orderId: string) => ({ pk: `ORDER#${orderId}`, sk: 'ORDER' });

export class DynamoCheckoutStore implements CheckoutStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(session: CheckoutSession): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: itemOf(session), ConditionExpression: 'attribute_not_exists(pk)' }));
  }

  async get(id: string): Promise<CheckoutSession | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: checkoutKey(id), ConsistentRead: true }));
    return res.Item ? checkoutFromItem(res.Item) : undefined;
  }

  async listCompletedByApp(appId: string, limit: number, cursor?: string): Promise<OrderPage> {
    const res = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: 'gsi2',
        KeyConditionExpression: cursor === undefined ? 'gsi2pk = :pk' : 'gsi2pk = :pk AND gsi2sk < :before',
        ExpressionAttributeValues: { ':pk': `APPORDERS#${appId}`, ...(cursor === undefined ? {} : { ':before': decodeOrderPosition(cursor) }) },
        ScanIndexForward: false,
        // One more than the page tells whether a next page exists.
        Limit: limit + 1,
      }),
    );
    const sessions = (res.Items ?? []).map(checkoutFromItem);
    const shown = sessions.slice(0, limit);
    return { sessions: shown, ...(sessions.length > limit ? { cursor: encodeOrderPosition(shown[shown.length - 1]!) } : {}) };
  }

  async listOwingCompletion(limit: number): Promise<CheckoutSession[]> {
    const res = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: 'gsi4',
        KeyConditionExpression: 'gsi4pk = :pk',
        ExpressionAttributeValues: { ':pk': OWING },
        Limit: limit,
      }),
    );
    // The index is eventually consistent: read each session itself before acting on it.
    return (res.Items ?? []).map(checkoutFromItem);
  }

  async getByOrderId(orderId: string): Promise<CheckoutSession | undefined> {
    const pointer = await this.db.send(new GetCommand({ TableName: this.table, Key: orderKey(orderId), ConsistentRead: true }));
    const sessionId = pointer.Item?.sessionId;
    if (typeof sessionId !== 'string') return undefined;
    const s = await this.get(sessionId);
    return s?.order?.id === orderId ? s : undefined;
  }

  async replace(next: CheckoutSession, expectedVersion: number, opts: { readonly newOrder?: boolean } = {}): Promise<boolean> {
    // The pointer first: a sale whose session write fails leaves a pointer that names no order. Only
    // the sale writes it: every later change of the order finds it in place.
    if (opts.newOrder && next.order)
      await this.db.send(new PutCommand({ TableName: this.table, Item: { ...orderKey(next.order.id), type: 'order-pointer', sessionId: next.id } }));
    return sendConditional(
      this.db,
      new PutCommand({
        TableName: this.table,
        Item: itemOf({ ...next, version: expectedVersion + 1 }),
        ConditionExpression: 'version = :v',
        ExpressionAttributeValues: { ':v': expectedVersion },
      }),
    );
  }
}
