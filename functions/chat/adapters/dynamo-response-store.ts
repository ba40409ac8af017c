/**
 * Stored responses of the Responses API, one item each in its session's partition
 * (`SESSION#<session>` / `SESSION#RESPONSE#<answer>`): the session's removal deletes them with it, and
 * the sort key sorts after `SESSION`, outside the range a turn reads its transcript from. A response
 * object or a background request over 64 KiB of JSON is stored gzipped, so a 256 KiB answer with many
 * tool schemas stays within DynamoDB's 400 KB item. `status` is an attribute of its own, for the
 * conditional writes of a background run's changes.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DomainError } from '../../kernel/domain/errors';
import type { ResponseStatus } from '../domain/response-object';
import type { ResponseChange, ResponseStore, StoredResponse } from '../app/chat-ports';

const key = (sessionId: string, answerId: string) => ({ pk: `SESSION#${sessionId}`, sk: `SESSION#RESPONSE#${answerId}` });
const GZIP_ABOVE_BYTES = 64 * 1024;
/** A background request is kept in its response's item, which DynamoDB bounds at 400 KB in all. */
const MAX_JOB_BYTES = 300 * 1024;

/** JSON as an attribute: text, or gzipped bytes above the threshold. */
function packed(name: string, value: unknown): Record<string, string | Uint8Array> {
  const json = JSON.stringify(value);
  return Buffer.byteLength(json) > GZIP_ABOVE_BYTES ? { [`${name}Gz`]: gzipSync(json) } : { [name]: json };
}

function unpacked(item: Record<string, unknown>, name: string): unknown {
  if (typeof item[name] === 'string') return JSON.parse(item[name] as string);
  const gz = item[`${name}Gz`];
  return gz === undefined ? undefined : JSON.parse(gunzipSync(gz as Uint8Array).toString('utf8'));
}

function boundedJob(job: unknown): Record<string, string | Uint8Array> {
  const out = packed('job', job);
  const size = Object.values(out).reduce((n, v) => n + (typeof v === 'string' ? Buffer.byteLength(v) : v.length), 0);
  if (size > MAX_JOB_BYTES)
    throw new DomainError('payload_too_large', 'A background request is too large to keep: at most 300 KB of it compressed; send it without background');
  return out;
}

export class DynamoResponseStore implements ResponseStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async put(r: StoredResponse): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...key(r.sessionId, r.answerId),
          type: 'response',
          appId: r.appId,
          ...(r.turnId !== null ? { turnId: r.turnId } : {}),
          createdAtUs: r.createdAtUs,
          status: r.status,
          ...packed('body', r.body),
          ...(r.job !== undefined ? boundedJob(r.job) : {}),
        },
      }),
    );
  }

  async get(sessionId: string, answerId: string): Promise<StoredResponse | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: key(sessionId, answerId), ConsistentRead: true }));
    const item = res.Item;
    if (!item) return undefined;
    const job = unpacked(item, 'job');
    return {
      sessionId,
      answerId,
      appId: String(item.appId),
      turnId: typeof item.turnId === 'string' ? item.turnId : null,
      createdAtUs: Number(item.createdAtUs),
      status: (item.status ?? 'completed') as ResponseStatus,
      body: unpacked(item, 'body') as Record<string, unknown>,
      ...(job !== undefined ? { job } : {}),
      ...(typeof item.runUntilUs === 'number' ? { runUntilUs: item.runUntilUs } : {}),
    };
  }

  async remove(sessionId: string, answerId: string): Promise<boolean> {
    try {
      await this.db.send(new DeleteCommand({ TableName: this.table, Key: key(sessionId, answerId), ConditionExpression: 'attribute_exists(pk)' }));
      return true;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return false;
      throw err;
    }
  }

  async transition(sessionId: string, answerId: string, from: readonly ResponseStatus[], change: ResponseChange): Promise<boolean> {
    const body = packed('body', change.body);
    const values: Record<string, unknown> = { ':status': change.status };
    const sets = ['#status = :status'];
    // The body's other form goes: a body that shrank below the threshold is text again, and the other way round.
    const removes = [
      Object.hasOwn(body, 'body') ? 'bodyGz' : 'body',
      ...(change.dropJob ? ['job', 'jobGz'] : []),
      ...(change.runUntilUs === undefined ? ['runUntilUs'] : []),
    ];
    for (const [name, value] of Object.entries(body)) {
      sets.push(`${name} = :${name}`);
      values[`:${name}`] = value;
    }
    if (change.turnId !== undefined) {
      sets.push('turnId = :turnId');
      values[':turnId'] = change.turnId;
    }
    if (change.runUntilUs !== undefined) {
      sets.push('runUntilUs = :runUntil');
      values[':runUntil'] = change.runUntilUs;
    }
    from.forEach((s, i) => {
      values[`:from${i}`] = s;
    });
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(sessionId, answerId),
          UpdateExpression: `SET ${sets.join(', ')} REMOVE ${removes.join(', ')}`,
          ConditionExpression: `#status IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: values,
        }),
      );
      return true;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return false;
      throw err;
    }
  }
}
