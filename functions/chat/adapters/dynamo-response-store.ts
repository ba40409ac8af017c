/**
 * Stored responses of the Responses API, one item each in its session's partition
 * (`SESSION#<session>` / `SESSION#RESPONSE#<answer>`): the session's removal deletes them with it, and
 * the sort key sorts after `SESSION`, outside the range a turn reads its transcript from. A response
 * object over 64 KiB of JSON is stored gzipped, so even a 256 KiB answer with many tool schemas stays
 * within DynamoDB's 400 KB item.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ResponseStore, StoredResponse } from '../app/chat-ports';

const key = (sessionId: string, answerId: string) => ({ pk: `SESSION#${sessionId}`, sk: `SESSION#RESPONSE#${answerId}` });
const GZIP_ABOVE_BYTES = 64 * 1024;

export class DynamoResponseStore implements ResponseStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async put(r: StoredResponse): Promise<void> {
    const json = JSON.stringify(r.body);
    const body = Buffer.byteLength(json) > GZIP_ABOVE_BYTES ? { bodyGz: gzipSync(json) } : { body: json };
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...key(r.sessionId, r.answerId), type: 'response', appId: r.appId, turnId: r.turnId, createdAtUs: r.createdAtUs, ...body },
      }),
    );
  }

  async get(sessionId: string, answerId: string): Promise<StoredResponse | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: key(sessionId, answerId), ConsistentRead: true }));
    const item = res.Item;
    if (!item) return undefined;
    const json = typeof item.body === 'string' ? item.body : gunzipSync(item.bodyGz as Uint8Array).toString('utf8');
    return {
      sessionId,
      answerId,
      appId: String(item.appId),
      turnId: String(item.turnId),
      createdAtUs: Number(item.createdAtUs),
      body: JSON.parse(json) as Record<string, unknown>,
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
}
