/**
 * Fixed one-minute windows as DynamoDB counters (docs/design.md §5): one atomic ADD per request, the item
 * expiring through TTL after its window. The same code runs on dynalite, where TTL is a no-op.
 */
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RateCounter, RateLimitWindow } from '../app/kernel-ports';

export class DynamoRateCounter implements RateCounter {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async hit(subject: string, windowMs: number, nowMs: number): Promise<RateLimitWindow> {
    const windowStartMs = Math.floor(nowMs / windowMs) * windowMs;
    const res = await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { pk: `RL#${subject}#${windowStartMs}`, sk: 'RL' },
        UpdateExpression: 'ADD #n :one SET expiresAt = if_not_exists(expiresAt, :exp)',
        ExpressionAttributeNames: { '#n': 'count' },
        ExpressionAttributeValues: { ':one': 1, ':exp': Math.ceil((windowStartMs + 2 * windowMs) / 1000) },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return { count: Number(res.Attributes?.count ?? 1), windowStartMs };
  }
}
