/**
 * batchGetConsistent (kernel/adapters/dynamo-batch.ts) on the embedded DynamoDB: one BatchGetItem per
 * 100 distinct keys, a key named twice read once (DynamoDB refuses a batch that names a key twice), and
 * unprocessed keys asked for again until every item is in.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchGetConsistent } from '../../functions/kernel/adapters/dynamo-batch';
import { startTestTable, type TestTable } from '../support/dynamo';

describe('batchGetConsistent', () => {
  let t: TestTable;
  const sent: number[] = [];
  /** Unprocessed keys the next BatchGetItem answers with, as DynamoDB does under throttling. */
  let leaveOut = 0;
  const key = (i: number) => ({ pk: `ITEM#${i}`, sk: 'ITEM' });

  beforeAll(async () => {
    t = await startTestTable();
    for (let i = 0; i < 150; i += 25) {
      const items = Array.from({ length: 25 }, (_, j) => ({ PutRequest: { Item: { ...key(i + j), n: i + j } } }));
      await t.db.send(new BatchWriteCommand({ RequestItems: { [t.table]: items } }));
    }
    t.db.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName !== 'BatchGetItemCommand') return next(args);
        const input = args.input as { RequestItems: Record<string, { Keys: unknown[]; ConsistentRead?: boolean }> };
        const asked = input.RequestItems[t.table]!;
        expect(asked.ConsistentRead).toBe(true);
        sent.push(asked.Keys.length);
        if (leaveOut === 0) return next(args);
        const kept = asked.Keys.slice(leaveOut);
        const left = asked.Keys.slice(0, leaveOut);
        leaveOut = 0;
        const out = await next({ ...args, input: { RequestItems: { [t.table]: { ...asked, Keys: kept } } } });
        return { ...out, output: { ...out.output, UnprocessedKeys: { [t.table]: { Keys: left } } } as typeof out.output };
      },
      { step: 'initialize', name: 'batchGetCounter' },
    );
  });
  afterAll(() => t.stop());

  it('reads 150 keys, some named twice and some absent, in one call per 100 distinct keys', async () => {
    sent.length = 0;
    const keys = [...Array.from({ length: 140 }, (_, i) => key(i)), key(3), key(7), key(500)];
    const item = await batchGetConsistent(t.db, t.table, keys);
    expect(sent).toEqual([100, 41]);
    expect(item(key(0))?.n).toBe(0);
    expect(item(key(139))?.n).toBe(139);
    expect(item(key(500))).toBeUndefined();
    expect(item(key(145))).toBeUndefined();
  });

  it('asks again for the keys DynamoDB left unprocessed', async () => {
    sent.length = 0;
    leaveOut = 2;
    const item = await batchGetConsistent(t.db, t.table, [key(1), key(2), key(3)]);
    expect(sent).toEqual([3, 2]);
    expect([1, 2, 3].map((i) => item(key(i))?.n)).toEqual([1, 2, 3]);
  });
});
