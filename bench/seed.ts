/** Seeding the local platform's table directly for the benches: its document client, and items written in batches. */
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RunningPlatform } from '../functions/local/local-platform';

export interface PlatformTable {
  readonly db: DynamoDBDocumentClient;
  readonly table: string;
}

/** The platform's adapters share one document client; the session store holds it (as test/support/store.ts does). */
export function tableOf(p: RunningPlatform): PlatformTable {
  const store = p.deps.sessions as unknown as { db?: DynamoDBDocumentClient; table?: string };
  if (!store.db || !store.table) throw new Error('the session store no longer exposes db/table: update bench/seed.ts');
  return { db: store.db, table: store.table };
}

/** BatchWriteItem, 25 items a request, `concurrency` requests in flight, unprocessed items retried. */
export async function seed(t: PlatformTable, items: readonly Record<string, unknown>[], concurrency: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      let requests = items.slice(next, (next += 25)).map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 0; requests.length > 0; attempt++) {
        if (attempt > 8) throw new Error('BatchWrite kept returning unprocessed items');
        if (attempt > 0) await new Promise((r) => setTimeout(r, 25 * 2 ** attempt));
        const res = await t.db.send(new BatchWriteCommand({ RequestItems: { [t.table]: requests } }));
        requests = (res.UnprocessedItems?.[t.table] ?? []) as typeof requests;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
