import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoTombstoneStore } from '../../functions/conversations/adapters/dynamo-tombstone-store';
import { tombstoneIdOf, type Tombstone } from '../../functions/conversations/domain/tombstone';
import { startTestTable, type TestTable } from '../support/dynamo';

const T0 = Date.parse('2026-11-01T00:00:00.000Z') * 1000;

describe('DynamoTombstoneStore.putOnce', () => {
  let t: TestTable;
  let store: DynamoTombstoneStore;
  const orgTombstones = async (orgId: string) =>
    (
      await t.db.send(
        new QueryCommand({
          TableName: t.table,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': `ORGTOMB#${orgId}` },
        }),
      )
    ).Items ?? [];

  beforeAll(async () => {
    t = await startTestTable();
    store = new DynamoTombstoneStore(t.db, t.table);
  });
  afterAll(() => t.stop());

  const tomb = (resourceId: string, at: number, suffix: string, over: Partial<Tombstone> = {}): Tombstone => ({
    id: tombstoneIdOf(at, suffix),
    orgId: 'org-t',
    resourceType: 'session',
    resourceId,
    cause: 'consumer_deleted',
    deletedAtUs: at,
    ...over,
  });

  it('returns the first tombstone on a second call, whatever the second one says', async () => {
    const first = tomb('s-1', T0, 'aaaaaaaa');
    expect(await store.putOnce(first)).toEqual(first);
    const again = await store.putOnce(tomb('s-1', T0 + 5_000_000, 'bbbbbbbb', { cause: 'app_deleted' }));
    expect(again).toEqual(first);
    const listed = (await orgTombstones('org-t')).filter((i) => i.resourceId === 's-1');
    expect(listed).toHaveLength(1);
    expect(listed[0]!.id).toBe(first.id);
    expect(listed[0]!.cause).toBe('consumer_deleted');
  });

  it('keeps exactly one tombstone when ten writers race for the same resource', async () => {
    const attempts = Array.from({ length: 10 }, (_, i) => tomb('s-race', T0 + i, `race000${i}`));
    const results = await Promise.all(attempts.map((a) => store.putOnce(a)));
    const ids = new Set(results.map((r) => r.id));
    expect(ids.size).toBe(1);
    const listed = (await orgTombstones('org-t')).filter((i) => i.resourceId === 's-race');
    expect(listed).toHaveLength(1);
    expect(listed[0]!.id).toBe(results[0]!.id);
  });

  it('keeps a session and a consumer with the same id apart', async () => {
    const s = await store.putOnce(tomb('same-id', T0, 'cccccccc'));
    const c = await store.putOnce(tomb('same-id', T0, 'dddddddd', { resourceType: 'consumer' }));
    expect(c.id).not.toBe(s.id);
    expect(c.resourceType).toBe('consumer');
  });

  it('restamps a tombstone forward only, and a later putOnce returns the restamped one', async () => {
    const first = await store.putOnce(tomb('s-restamp', T0, 'eeeeeeee'));
    const moved = await store.restamp(first, T0 + 10_000_000, tombstoneIdOf(T0 + 10_000_000, 'ffffffff'));
    expect(await store.putOnce(tomb('s-restamp', T0 + 20_000_000, 'gggggggg'))).toEqual(moved);
    await expect(store.restamp(moved, T0 + 1, tombstoneIdOf(T0 + 1, 'hhhhhhhh'))).rejects.toThrow();
    const listed = (await orgTombstones('org-t')).filter((i) => i.resourceId === 's-restamp');
    expect(listed).toHaveLength(1);
    expect(listed[0]!.gsi1sk).toBe(`${String(T0 + 10_000_000).padStart(16, '0')}#${moved.id}`);
  });
});
