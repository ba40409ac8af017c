/** Checkout sessions (`CHECKOUT#<id>` / `CHECKOUT`), each write conditioned on the version it read. */
import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CheckoutSession } from '../domain/checkout';
import type { CheckoutStore } from '../ports/acp-ports';
import { sendConditional } from '../../platform/adapters/dynamo-batch';
import { timeIdKey } from '../../platform/adapters/dynamo-keys';

const key = (id: string) => ({ pk: `CHECKOUT#${id}`, sk: 'CHECKOUT' });
const FIELDS = [
  'id',
  'orgId',
  'appId',
  'status',
  'currency',
  'lines',
  'buyerEmail',
  'messages',
  'order',
  'completion',
  'details',
  'createdAtUs',
  'updatedAtUs',
  'expiresAtUs',
  'version',
] as const;

function fromItem(item: Record<string, unknown>): CheckoutSession {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) out[f] = item[f] ?? null;
  out.details ??= {};
  return out as unknown as CheckoutSession;
}

/** Sessions whose complete owes work, by claim time (the sparse gsi4 queue of the recovery job). */
const OWING = 'CHECKOUTOWING';

/**
 * A completed session is listed under its app's orders (gsi2 `APPORDERS#<appId>`, by order time); one
 * whose complete still owes work is on gsi4 until it is done.
 */
const itemOf = (s: CheckoutSession) => ({
  ...key(s.id),
  type: 'checkout',
  ...s,
  lines: [...s.lines],
  messages: [...s.messages],
  ...(s.order ? { gsi2pk: `APPORDERS#${s.appId}`, gsi2sk: timeIdKey(s.order.createdAtUs, s.order.id) } : {}),
  ...(s.completion ? { gsi4pk: OWING, gsi4sk: timeIdKey(s.completion.startedAtUs, s.id) } : {}),
});

export class DynamoCheckoutStore implements CheckoutStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(session: CheckoutSession): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: itemOf(session), ConditionExpression: 'attribute_not_exists(pk)' }));
  }

  async get(id: string): Promise<CheckoutSession | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: key(id), ConsistentRead: true }));
    return res.Item ? fromItem(res.Item) : undefined;
  }

  async listCompletedByApp(appId: string, limit: number): Promise<CheckoutSession[]> {
    const res = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': `APPORDERS#${appId}` },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (res.Items ?? []).map(fromItem);
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
    return (res.Items ?? []).map(fromItem);
  }

  replace(next: CheckoutSession, expectedVersion: number): Promise<boolean> {
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
