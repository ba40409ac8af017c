/**
 * The embedded backends on their thread: the platforms of one process each get servers of their own,
 * a stopped set closes its tables so the next start on the same data directory reads them back, and
 * stopping twice is harmless (a failed start and the platform's cleanup may both ask).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, GetItemCommand, ListTablesCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { ListQueuesCommand } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqsClient } from '../../functions/kernel/adapters/aws-queue-clients';
import { LOCAL_CREDENTIALS, LOCAL_REGION, startBackends, type Backends } from '../../functions/local/backends';

const dirs: string[] = [];
const clients: { destroy(): void }[] = [];

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'embedded-backends-'));
  dirs.push(dir);
  return dir;
}

function dynamo(backends: Backends): DynamoDBClient {
  const client = new DynamoDBClient({ region: LOCAL_REGION, endpoint: backends.endpoints.dynamodb, credentials: LOCAL_CREDENTIALS });
  clients.push(client);
  return client;
}

async function createTable(db: DynamoDBClient, name: string): Promise<void> {
  await db.send(
    new CreateTableCommand({
      TableName: name,
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  // dynalite turns a new table ACTIVE on a timer: a write that comes first finds no table.
  while ((await db.send(new DescribeTableCommand({ TableName: name }))).Table?.TableStatus !== 'ACTIVE') await sleep(5);
}

afterAll(() => {
  for (const c of clients) c.destroy();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the embedded backends', () => {
  it('give each platform of the process servers of its own', async () => {
    const [a, b] = await Promise.all([startBackends(dataDir(), false), startBackends(dataDir(), false)]);
    try {
      expect(a.endpoints.dynamodb).not.toBe(b.endpoints.dynamodb);
      await createTable(dynamo(a), 'only-in-a');
      expect((await dynamo(a).send(new ListTablesCommand({}))).TableNames).toEqual(['only-in-a']);
      expect((await dynamo(b).send(new ListTablesCommand({}))).TableNames).toEqual([]);
      const sqs = createSqsClient({ region: LOCAL_REGION, endpoints: b.endpoints, credentials: LOCAL_CREDENTIALS });
      clients.push(sqs);
      expect((await sqs.send(new ListQueuesCommand({}))).QueueUrls ?? []).toEqual([]);
    } finally {
      await a.stop();
    }
    // One set stopped, the other still answers.
    expect((await dynamo(b).send(new ListTablesCommand({}))).TableNames).toEqual([]);
    await b.stop();
  });

  it('close a persisted table on stop, so the next start on the data directory reads it back', async () => {
    const dir = dataDir();
    const first = await startBackends(dir, true);
    await createTable(dynamo(first), 'kept');
    await dynamo(first).send(new PutItemCommand({ TableName: 'kept', Item: { pk: { S: 'k' }, v: { S: 'written before the stop' } } }));
    await first.stop();
    await first.stop();

    const second = await startBackends(dir, true);
    try {
      const got = await dynamo(second).send(new GetItemCommand({ TableName: 'kept', Key: { pk: { S: 'k' } } }));
      expect(got.Item?.v).toEqual({ S: 'written before the stop' });
    } finally {
      await second.stop();
    }
  });
});
