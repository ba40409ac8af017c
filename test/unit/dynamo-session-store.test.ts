import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoSessionStore } from '../../functions/conversations/adapters/dynamo-session-store';
import { timeIdKey } from '../../functions/kernel/adapters/dynamo-batch';
import type { Session } from '../../functions/conversations/domain/session';
import { startTestTable, type TestTable } from '../support/dynamo';

const T0 = Date.parse('2026-11-01T00:00:00.000Z') * 1000;

function session(id: string, over: Partial<Session> = {}): Session {
  return {
    id,
    orgId: 'org-1',
    appId: 'app-1',
    consumerId: null,
    consumerEmail: null,
    title: 't',
    source: 'APP',
    externalId: null,
    queryParams: [],
    startedAtUs: T0,
    lastMessageAtUs: null,
    touchedAtUs: T0,
    ...over,
  };
}

describe('DynamoSessionStore.touch', () => {
  let t: TestTable;
  let store: DynamoSessionStore;
  const raw = async (id: string) =>
    (await t.db.send(new GetCommand({ TableName: t.table, Key: { pk: `SESSION#${id}`, sk: 'SESSION' }, ConsistentRead: true }))).Item!;

  beforeAll(async () => {
    t = await startTestTable();
    store = new DynamoSessionStore(t.db, t.table);
  });
  afterAll(() => t.stop());

  it('only moves forward under 20 concurrent touches at random times', async () => {
    await store.create(session('s-concurrent'));
    const times = Array.from({ length: 20 }, () => T0 + 1 + Math.floor(Math.random() * 1_000_000_000));
    // Shuffle so the largest value is not systematically last.
    times.sort(() => Math.random() - 0.5);
    const results = await Promise.all(times.map((at) => store.touch('s-concurrent', at)));
    expect(results.every(Boolean)).toBe(true);

    const max = Math.max(...times);
    const got = await store.get('s-concurrent');
    expect(got?.touchedAtUs).toBe(max);
    expect(got?.lastMessageAtUs).toBeNull();

    const item = await raw('s-concurrent');
    const position = timeIdKey(max, 's-concurrent');
    expect(item.lastActivityUs).toBe(max);
    expect(item.gsi1sk).toBe(position);
    expect(item.gsi2sk).toBe(position);
    // Still without a message: it stays in the empty-session index, at its new position.
    expect(item.gsi4pk).toBe('EMPTYSESS');
    expect(item.gsi4sk).toBe(position);
    expect(item.version).toBe(21);
  });

  it('keeps the greatest touch and last message when touches with messages race', async () => {
    await store.create(session('s-msgs'));
    const calls = Array.from({ length: 20 }, (_, i) => ({
      at: T0 + 1 + Math.floor(Math.random() * 1_000_000),
      msg: i % 2 === 0 ? T0 + Math.floor(Math.random() * 2_000_000) : undefined,
    }));
    await Promise.all(calls.map((c) => store.touch('s-msgs', c.at, c.msg)));
    const maxTouch = Math.max(...calls.map((c) => c.at));
    const maxMsg = Math.max(...calls.flatMap((c) => (c.msg === undefined ? [] : [c.msg])));
    const got = await store.get('s-msgs');
    expect(got?.touchedAtUs).toBe(maxTouch);
    expect(got?.lastMessageAtUs).toBe(maxMsg);
    const activity = Math.max(maxTouch, maxMsg);
    const item = await raw('s-msgs');
    expect(item.lastActivityUs).toBe(activity);
    expect(item.gsi1sk).toBe(timeIdKey(activity, 's-msgs'));
    expect(item.gsi2sk).toBe(timeIdKey(activity, 's-msgs'));
    expect(item.gsi1pk).toBe('ORGSESS#org-1');
    // A session with a message leaves the empty-session index.
    expect(item.gsi4pk).toBeUndefined();
    expect(item.gsi4sk).toBeUndefined();
  });

  it('never moves the touch clock backwards', async () => {
    await store.create(session('s-back'));
    await store.touch('s-back', T0 + 5_000_000);
    await store.touch('s-back', T0 + 1_000_000, T0 + 2_000_000);
    const got = await store.get('s-back');
    expect(got?.touchedAtUs).toBe(T0 + 5_000_000);
    expect(got?.lastMessageAtUs).toBe(T0 + 2_000_000);
    expect((await raw('s-back')).lastActivityUs).toBe(T0 + 5_000_000);
  });

  it('answers false for a missing or removed session and does not recreate it', async () => {
    expect(await store.touch('no-such-session', T0)).toBe(false);
    await store.create(session('s-removed'));
    await store.remove('s-removed', T0 + 1);
    expect(await store.touch('s-removed', T0 + 2)).toBe(false);
    expect(await store.get('s-removed')).toBeUndefined();
    const res = await t.db.send(new GetCommand({ TableName: t.table, Key: { pk: 'SESSION#no-such-session', sk: 'SESSION' } }));
    expect(res.Item).toBeUndefined();
  });

  it('removes a session with its messages, and a repeated removal is harmless', async () => {
    await store.create(session('s-rm', { consumerId: 'c-1' }));
    for (let i = 0; i < 30; i++) {
      await store.putMessage({ id: `m${i}`, sessionId: 's-rm', role: 'user', content: 'hi', createdAtUs: T0 + i });
    }
    expect(await store.listMessages('s-rm')).toHaveLength(30);
    await store.remove('s-rm', T0 + 100);
    await store.remove('s-rm', T0 + 200);
    expect(await store.listMessages('s-rm')).toEqual([]);
    expect(await store.listByConsumer('c-1')).toEqual([]);
    expect(await store.listForRemovalByApp('app-1', 100).then((l) => l.map((s) => s.id))).not.toContain('s-rm');
  });
});

describe('DynamoSessionStore external ids', () => {
  let t: TestTable;
  let store: DynamoSessionStore;
  const lookupItem = async (orgId: string, externalId: string, id: string) =>
    (await t.db.send(new GetCommand({ TableName: t.table, Key: { pk: `SESSEXT#${orgId}#${externalId}`, sk: `SESSION#${id}` }, ConsistentRead: true }))).Item;

  beforeAll(async () => {
    t = await startTestTable();
    store = new DynamoSessionStore(t.db, t.table);
  });
  afterAll(() => t.stop());

  it('finds an org’s sessions by external id, never another org’s, and forgets one once it is removed', async () => {
    await store.create(session('ext-a', { externalId: 'web:42' }));
    await store.create(session('ext-b', { externalId: 'web:42' }));
    await store.create(session('ext-c', { externalId: 'web:43' }));
    await store.create(session('ext-other-org', { orgId: 'org-2', externalId: 'web:42' }));
    await store.create(session('ext-none'));

    expect((await store.listByExternalId('org-1', 'web:42')).map((s) => s.id).sort()).toEqual(['ext-a', 'ext-b']);
    expect((await store.listByExternalId('org-2', 'web:42')).map((s) => s.id)).toEqual(['ext-other-org']);
    expect(await store.listByExternalId('org-1', 'web:4')).toEqual([]);

    await store.remove('ext-a', T0 + 1);
    expect(await lookupItem('org-1', 'web:42', 'ext-a')).toBeUndefined();
    expect(await lookupItem('org-1', 'web:42', 'ext-b')).toBeDefined();
    expect((await store.listByExternalId('org-1', 'web:42')).map((s) => s.id)).toEqual(['ext-b']);
  });

  it('lists a consumer’s live sessions only: one being removed is left out', async () => {
    await store.create(session('cons-a', { consumerId: 'consumer-1' }));
    await store.create(session('cons-b', { consumerId: 'consumer-1' }));
    // A removal interrupted after its first step: hidden from reads, still in the consumer's index.
    await t.db.send(
      new UpdateCommand({
        TableName: t.table,
        Key: { pk: 'SESSION#cons-b', sk: 'SESSION' },
        UpdateExpression: 'SET deletedAtUs = :at',
        ExpressionAttributeValues: { ':at': T0 + 1 },
      }),
    );
    expect((await store.listOfConsumer('consumer-1')).map((s) => s.id)).toEqual(['cons-a']);
    expect((await store.listByConsumer('consumer-1')).map((s) => s.id).sort()).toEqual(['cons-a', 'cons-b']);
  });
});
