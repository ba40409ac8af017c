/**
 * An embedded DynamoDB (dynalite, in memory) with the platform's one table, for adapter tests that need
 * storage but not the whole platform. The adapters under test are the production ones.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import dynalite from 'dynalite';
import { createDocumentClient } from '../../functions/kernel/adapters/aws-clients';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../functions/local/backends';
import { ensureTable } from '../../functions/local/bootstrap';

export interface TestTable {
  readonly db: DynamoDBDocumentClient;
  readonly table: string;
  stop(): Promise<void>;
}

export async function startTestTable(table = 'platform'): Promise<TestTable> {
  const server: Server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await ensureTable(new DynamoDBClient({ region: LOCAL_REGION, endpoint, credentials: LOCAL_CREDENTIALS }), table);
  const db = createDocumentClient({ region: LOCAL_REGION, endpoints: { dynamodb: endpoint }, credentials: LOCAL_CREDENTIALS });
  return {
    db,
    table,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
