/**
 * A conversation's metadata lives in one item of its session's partition (`SESSION#<id>` / `CONVMETA`),
 * beside the session's variables, so the session's removal takes it with it and no export reads it.
 */
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ConversationMetadataStore } from '../app/conversation-ports';
import { sessionPk } from './dynamo-session-items';

const key = (sessionId: string) => ({ pk: sessionPk(sessionId), sk: 'CONVMETA' });

export class DynamoConversationMetadataStore implements ConversationMetadataStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(sessionId: string): Promise<Record<string, string>> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: key(sessionId), ConsistentRead: true }));
    // Kept as a list of pairs: a key may be any text (`__proto__` too), which a map attribute read into a plain object would lose.
    const pairs = (res.Item?.pairs ?? []) as [string, string][];
    const out = Object.create(null) as Record<string, string>;
    for (const [k, v] of pairs) out[k] = v;
    return out;
  }

  async put(sessionId: string, metadata: Readonly<Record<string, string>>): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: { ...key(sessionId), type: 'conversation-metadata', pairs: Object.entries(metadata) } }));
  }
}
