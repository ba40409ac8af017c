/** The conversation stores (sessions, consumers, usage, tombstones, file records), shared by the export and chat wirings. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoConsumerStore } from '../adapters/dynamo-consumer-store';
import { DynamoFileStore } from '../adapters/dynamo-file-store';
import { DynamoSessionStore } from '../adapters/dynamo-session-store';
import { DynamoTombstoneStore } from '../adapters/dynamo-tombstone-store';
import { DynamoUsageStore } from '../adapters/dynamo-usage-store';
import type { ConversationPorts } from '../ports/conversation-ports';

export function buildConversationPorts(db: DynamoDBDocumentClient, table: string): ConversationPorts {
  return {
    sessions: new DynamoSessionStore(db, table),
    consumers: new DynamoConsumerStore(db, table),
    usage: new DynamoUsageStore(db, table),
    tombstones: new DynamoTombstoneStore(db, table),
    files: new DynamoFileStore(db, table),
  };
}
