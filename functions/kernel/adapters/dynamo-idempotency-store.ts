/**
 * Idempotency keys (`IDEMP#<SHA-256 of the scope>` / `IDEMP`): claimed with a conditional put (the first request of a
 * key runs, a concurrent one sees it in flight), then the answer is stored for replays. Items carry a
 * 24-hour TTL; an expired key behaves as new, and so does one left in flight past its request's time.
 * The answer is stored gzipped (`bodyGz`): a chat answer may be 256 KiB of text, more once JSON-escaped,
 * and a replay must never be lost to DynamoDB's 400 KB item limit. Items written before carry `body`.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { IdempotencyBegin, IdempotencyStore } from '../app/kernel-ports';

/**
 * A scope holds client input of any length (the client's key, a path id), and a partition key takes
 * at most 2048 bytes: the key is the scope's digest, so no scope can fail the write.
 */
const key = (scope: string) => ({ pk: `IDEMP#${createHash('sha256').update(scope).digest('hex')}`, sk: 'IDEMP' });
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A request in flight longer than this is gone (the checkout functions time out after 29 s). */
export const DEFAULT_IN_FLIGHT_MS = 60_000;

export class DynamoIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async begin(scope: string, fingerprint: string, nowMs: number, inFlightMs = DEFAULT_IN_FLIGHT_MS): Promise<IdempotencyBegin> {
    const expiresAtMs = nowMs + IDEMPOTENCY_TTL_MS;
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            ...key(scope),
            type: 'idempotency',
            fingerprint,
            state: 'in_flight',
            inFlightUntilMs: nowMs + inFlightMs,
            expiresAtMs,
            expiresAt: Math.ceil(expiresAtMs / 1000),
          },
          // A key whose 24 hours are over is taken over (DynamoDB TTL deletes it eventually, dynalite
          // never), and so is one whose request died in flight.
          ConditionExpression: 'attribute_not_exists(pk) OR expiresAtMs < :now OR (#state = :inflight AND inFlightUntilMs < :now)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':now': nowMs, ':inflight': 'in_flight' },
        }),
      );
      return { state: 'new' };
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: key(scope), ConsistentRead: true }));
    const item = res.Item;
    if (!item) return this.begin(scope, fingerprint, nowMs, inFlightMs);
    if (item.fingerprint !== fingerprint) return { state: 'conflict' };
    if (item.state !== 'done') return { state: 'in_flight' };
    const json = item.bodyGz instanceof Uint8Array ? gunzipSync(item.bodyGz).toString('utf8') : String(item.body);
    return { state: 'replay', status: Number(item.status), body: JSON.parse(json) as unknown };
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
        UpdateExpression: 'SET #state = :done, #status = :status, bodyGz = :body',
        ExpressionAttributeNames: { '#state': 'state', '#status': 'status' },
        ExpressionAttributeValues: { ':done': 'done', ':status': response.status, ':body': gzipSync(JSON.stringify(response.body)) },
      }),
    );
  }
}
