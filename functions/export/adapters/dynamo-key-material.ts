/**
 * Secret material kept in the table itself: created once with a conditional put (the first writer
 * wins, every process then reads the same key) and cached for the life of the process. Whoever can
 * read the table can read every export row anyway; the cursor key only stops clients forging cursors.
 */
import { randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { KeyMaterial } from '../app/export-ports';

const KEY = { pk: 'CONFIG#cursor-key', sk: 'CONFIG' };

export class DynamoKeyMaterial implements KeyMaterial {
  private cached?: Promise<Uint8Array>;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  cursorKey(): Promise<Uint8Array> {
    this.cached ??= this.load().catch((err: unknown) => {
      this.cached = undefined;
      throw err;
    });
    return this.cached;
  }

  private async load(): Promise<Uint8Array> {
    const existing = await this.db.send(new GetCommand({ TableName: this.table, Key: KEY, ConsistentRead: true }));
    if (typeof existing.Item?.secret === 'string') return Buffer.from(existing.Item.secret, 'base64');
    const secret = randomBytes(32).toString('base64');
    try {
      await this.db.send(new PutCommand({ TableName: this.table, Item: { ...KEY, type: 'config', secret }, ConditionExpression: 'attribute_not_exists(pk)' }));
      return Buffer.from(secret, 'base64');
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
      return this.load();
    }
  }
}
