/**
 * Removing a session, for DynamoSessionStore (dynamo-session-store.ts): `remove` in three steps and
 * `listForRemovalByApp`, which finds the sessions an app deletion still has to remove. A session whose
 * removal has begun moves on gsi2 from its app's partition to the app's removing partition, so a
 * retry after a crash finds the half-removed ones first.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Session } from '../domain/session';
import { batchDelete, queryPages } from '../../kernel/adapters/dynamo-batch';
import { appSessionsPartition, externalIdKey, sessionFromItem, sessionKey, sessionPk } from './dynamo-session-items';

const removingPartition = (appId: string) => `APPSESSDEL#${appId}`;

export async function removeSession(db: DynamoDBDocumentClient, table: string, id: string, atUs: number): Promise<void> {
  const res = await db.send(new GetCommand({ TableName: table, Key: sessionKey(id), ConsistentRead: true }));
  if (!res.Item) return;
  if (res.Item.deletedAtUs === undefined) {
    // Step 1: leave the export lists and `get` at once; stay findable for a retry of this removal.
    try {
      await db.send(
        new UpdateCommand({
          TableName: table,
          Key: sessionKey(id),
          UpdateExpression: 'SET deletedAtUs = :at, gsi2pk = :removing REMOVE gsi1pk, gsi1sk',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':at': atUs, ':removing': removingPartition(String(res.Item.appId)) },
        }),
      );
    } catch (err) {
      // A concurrent removal of the same session (a session delete racing its consumer's delete)
      // deleted the item, its last step, between the read above and this write: nothing is left to do.
      if (err instanceof ConditionalCheckFailedException) return;
      throw err;
    }
  }
  // Step 2: the messages and everything else stored with the session (its variables).
  // Step 3: the session item itself.
  const pages = queryPages(db, {
    TableName: table,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': sessionPk(id) },
    ProjectionExpression: 'pk, sk',
  });
  for await (const page of pages) {
    const dependents = page.items.filter((i) => i.sk !== 'SESSION');
    await batchDelete(
      db,
      table,
      dependents.map((i) => ({ pk: i.pk, sk: i.sk })),
    );
  }
  // The external id's lookup item before the session item: a retry after a crash still finds the session.
  const externalId = res.Item.externalId;
  if (typeof externalId === 'string') {
    await db.send(new DeleteCommand({ TableName: table, Key: externalIdKey({ id, orgId: String(res.Item.orgId), externalId }) }));
  }
  await db.send(new DeleteCommand({ TableName: table, Key: sessionKey(id) }));
}

export async function listSessionsForRemovalByApp(db: DynamoDBDocumentClient, table: string, appId: string, limit: number): Promise<Session[]> {
  const out: Session[] = [];
  for (const partition of [removingPartition(appId), appSessionsPartition(appId)]) {
    if (out.length >= limit) break;
    const res = await db.send(
      new QueryCommand({
        TableName: table,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': partition },
        Limit: limit - out.length,
      }),
    );
    for (const item of res.Items ?? []) out.push(sessionFromItem(item));
  }
  return out;
}
