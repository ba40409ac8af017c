/**
 * Idempotency keys of area C (`IDEMP#<scope>` / `IDEMP`): claimed with a conditional put (the first
 * request of a key runs, a concurrent one sees it in flight), then the answer is stored for replays.
 * Items carry a 24-hour TTL; an expired key behaves as new.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { IdempotencyBegin, IdempotencyStore } from '../ports/acp';

const key = (scope: string) => ({ pk: `IDEMP#${scope}`, sk: 'IDEMP' });
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export class DynamoIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async begin(scope: string, fingerprint: string, nowMs: number): Promise<IdempotencyBegin> {
    const expiresAtMs = nowMs + IDEMPOTENCY_TTL_MS;
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...key(scope), type: 'idempotency', fingerprint, state: 'in_flight', expiresAtMs, expiresAt: Math.ceil(expiresAtMs / 1000) },
          // A key whose 24 hours are over is taken over (DynamoDB TTL deletes it eventually, dynalite never).
          ConditionExpression: 'attribute_not_exists(pk) OR expiresAtMs < :now',
          ExpressionAttributeValues: { ':now': nowMs },
        }),
      );
      return { state: 'new' };
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: key(scope), ConsistentRead: true }));
    const item = res.Item;
    if (!item) return this.begin(scope, fingerprint, nowMs);
    if (item.fingerprint !== fingerprint) return { state: 'conflict' };
    if (item.state !== 'done') return { state: 'in_flight' };
    return { state: 'replay', status: Number(item.status), body: JSON.parse(String(item.body)) as unknown };
  }

  async finish(scope: string, response: { readonly status: number; readonly body: unknown } | undefined): Promise<void> {
    if (!response || response.status >= 500) {
      await this.db.send(new DeleteCommand({ TableName: this.table, Key: key(scope) }));
      return;
    }
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: key(scope),
        UpdateExpression: 'SET #state = :done, #status = :status, body = :body',
        ExpressionAttributeNames: { '#state': 'state', '#status': 'status' },
        ExpressionAttributeValues: { ':done': 'done', ':status': response.status, ':body': JSON.stringify(response.body) },
      }),
    );
  }
}
