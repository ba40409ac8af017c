/**
 * docs/design.md §3: deletions are sequences of idempotent single-item writes, tombstone first, so a crash
 * anywhere converges when the same deletion runs again. A chat turn writes its messages under an open
 * turn, so a crash between them leaves nothing visible, and the session's next turn takes them out.
 * Faults are injected into the real DynamoDB client in front of the real adapters: the Nth matching
 * command fails as if the process died there.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Tombstone } from '../../functions/conversations/domain/tombstone';
import { chat, chatWorld } from '../support/chat';
import { seedSessions } from '../support/imports';
import type { TestPlatform } from '../support/platform';
import { appLeftovers, injectFault, itemsUnder, orgSessionIds, tombstonesOf, usePlatformAndTable, type Fault, type PlatformTable } from '../support/store';

type Input = Record<string, unknown>;
const key = (input: Input) => (input.Key ?? {}) as { pk?: string; sk?: string };

/** The writes of one session removal, in order, each a possible crash point. */
const CRASH_POINTS: { name: string; command: string; match: (input: Input) => boolean; insideRemoval: boolean }[] = [
  {
    name: 'after the tombstone, before the session is hidden',
    command: 'UpdateItemCommand',
    match: (i) => key(i).sk === 'SESSION' && String(i.UpdateExpression).includes('deletedAtUs'),
    insideRemoval: false,
  },
  { name: 'after hiding, while deleting messages', command: 'BatchWriteItemCommand', match: () => true, insideRemoval: true },
  { name: 'after the messages, before deleting the session item', command: 'DeleteItemCommand', match: (i) => key(i).sk === 'SESSION', insideRemoval: true },
];

describe('crash between two writes of a deletion', () => {
  let p: TestPlatform;
  let t: PlatformTable;
  let fault: Fault | undefined;
  usePlatformAndTable({ appDeletionBatchSize: 25 }, (started) => ({ p, t } = started));
  // After-hooks run in reverse order: the fault goes before the platform stops.
  afterAll(() => fault?.remove());

  /** Tombstones first, then the session index: a session listed here was visible after its tombstone existed. */
  async function visibleAfterTombstone(orgId: string): Promise<string[]> {
    const tombstoned = new Set((await tombstonesOf(t, orgId)).filter((x) => x.resourceType === 'session').map((x) => x.resourceId));
    return (await orgSessionIds(t, orgId)).filter((id) => tombstoned.has(id));
  }

  async function drainUntil(done: () => Promise<boolean>): Promise<void> {
    for (let round = 0; round < 20; round++) {
      await p.drainQueues();
      if (await done()) return;
    }
    throw new Error('the deletion did not converge');
  }

  it.each(CRASH_POINTS)('session delete crashing $name converges when re-run', async ({ command, match, insideRemoval }) => {
    const f = await p.fixture();
    const [sessionId, bystander] = await seedSessions(p, f.appId, [
      { email: null, messages: ['2026-01-01T00:00:01Z', '2026-01-01T00:00:02Z', '2026-01-01T00:00:03Z'] },
      { email: null, messages: ['2026-01-01T00:00:01Z'] },
    ]);

    fault = injectFault(t, { command, match });
    const crashed = await p.admin('DELETE', `/sessions/${sessionId}`);
    fault.remove();
    expect(fault.fired).toBe(true);
    expect(crashed.status).toBe(500);
    expect(crashed.body).toEqual({ error: { code: 'unavailable', message: 'Internal server error' } });

    const first = await tombstonesOf(t, f.orgId);
    expect(first).toHaveLength(1);
    if (insideRemoval) expect(await visibleAfterTombstone(f.orgId)).toEqual([]);

    const retried = await p.admin('DELETE', `/sessions/${sessionId}`);
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.data.tombstone.id).toBe(first[0]!.id);

    const after = await tombstonesOf(t, f.orgId);
    expect(after).toEqual(first);
    expect(after[0]).toMatchObject({ resourceType: 'session', resourceId: sessionId, cause: 'consumer_deleted' });
    expect(await itemsUnder(t, `SESSION#${sessionId}`)).toEqual([]);
    expect(await visibleAfterTombstone(f.orgId)).toEqual([]);
    expect(await orgSessionIds(t, f.orgId)).toEqual([bystander]);
  });

  it('consumer delete crashing inside its second session converges when re-run', async () => {
    const f = await p.fixture();
    const sessions = await seedSessions(p, f.appId, [
      { email: 'crash@example.com', messages: ['2026-01-01T00:00:01Z'] },
      { email: 'crash@example.com', messages: ['2026-01-02T00:00:01Z'] },
      { email: 'crash@example.com', messages: ['2026-01-03T00:00:01Z'] },
    ]);
    const consumerId = (await p.deps.sessions.get(sessions[0]!))!.consumerId!;

    fault = injectFault(t, { command: 'BatchWriteItemCommand', nth: 2 });
    expect((await p.admin('DELETE', `/consumers/${consumerId}`)).status).toBe(500);
    fault.remove();
    expect(fault.fired).toBe(true);
    const partial = await tombstonesOf(t, f.orgId);
    expect(partial.map((x) => x.resourceType).sort()).toEqual(['consumer', 'session', 'session']);
    expect(await visibleAfterTombstone(f.orgId)).toEqual([]);

    const retried = await p.admin('DELETE', `/consumers/${consumerId}`);
    expect(retried.status, retried.text).toBe(200);
    const after = await tombstonesOf(t, f.orgId);
    expect(
      after
        .filter((x) => x.resourceType === 'session')
        .map((x) => x.resourceId)
        .sort(),
    ).toEqual([...sessions].sort());
    expect(after.filter((x) => x.resourceType === 'consumer').map((x) => x.resourceId)).toEqual([consumerId]);
    // The tombstones written before the crash were kept, not written again.
    for (const before of partial) expect(after.find((x) => x.resourceId === before.resourceId)?.id).toBe(before.id);
    for (const id of sessions) expect(await itemsUnder(t, `SESSION#${id}`)).toEqual([]);
    expect(await p.deps.consumers.get(consumerId)).toBeUndefined();
    expect(await orgSessionIds(t, f.orgId)).toEqual([]);
  });

  it('app deletion whose worker crashes mid-batch converges through the queue retry', async () => {
    const f = await p.fixture();
    const sessionIds = await seedSessions(
      p,
      f.appId,
      Array.from({ length: 30 }, (_, i) => ({ email: i % 2 ? null : `u${i % 4}@example.com`, messages: ['2026-01-01T00:00:01Z', '2026-01-01T00:00:02Z'] })),
    );
    const consumerIds = (await p.deps.consumers.listByApp(f.appId, 100)).map((c) => c.id);

    // The tenth session item deletion of the worker fails: nine sessions are gone, the tenth is hidden
    // but not deleted, the rest of the batch is untouched.
    fault = injectFault(t, { command: 'DeleteItemCommand', nth: 10, match: (i) => key(i).sk === 'SESSION' });
    expect((await p.admin('DELETE', `/apps/${f.appId}`)).status).toBe(202);
    for (let i = 0; i < 1000 && !fault.fired; i++) await new Promise((r) => setTimeout(r, 10));
    fault.remove();
    expect(fault.fired).toBe(true);

    // Between the crash and the retry (the message stays invisible for a couple of seconds).
    const crashed = await tombstonesOf(t, f.orgId);
    expect(crashed.filter((x) => x.resourceType === 'session')).toHaveLength(10);
    expect(await visibleAfterTombstone(f.orgId)).toEqual([]);

    await drainUntil(async () => !(await p.deps.apps.listPendingDeletion(100)).some((a) => a.id === f.appId));

    const after = await tombstonesOf(t, f.orgId);
    const bySession = new Map<string, Tombstone[]>();
    for (const x of after.filter((y) => y.resourceType === 'session')) bySession.set(x.resourceId, [...(bySession.get(x.resourceId) ?? []), x]);
    expect([...bySession.keys()].sort()).toEqual([...sessionIds].sort());
    expect([...bySession.values()].every((list) => list.length === 1)).toBe(true);
    expect(
      after
        .filter((x) => x.resourceType === 'consumer')
        .map((x) => x.resourceId)
        .sort(),
    ).toEqual([...consumerIds].sort());
    expect(after.every((x) => x.cause === 'app_deleted')).toBe(true);
    for (const before of crashed) expect(after.find((x) => x.resourceId === before.resourceId)?.id).toBe(before.id);
    expect(await appLeftovers(t, f.appId)).toEqual([]);
    for (const id of sessionIds) expect(await itemsUnder(t, `SESSION#${id}`)).toEqual([]);
    expect(await visibleAfterTombstone(f.orgId)).toEqual([]);
  });
});

/** The writes of one continued chat turn, in order, each a possible crash point. */
const TURN_CRASH_POINTS: { name: string; command: string; match: (input: Input) => boolean }[] = [
  {
    name: 'at taking the lease and opening the turn, before the model runs',
    command: 'UpdateItemCommand',
    match: (i) => key(i).sk === 'SESSION' && /SET turnLeaseId = :l, turnLeaseUntilUs = :u, openTurnId = :turn/.test(String(i.UpdateExpression)),
  },
  {
    name: 'after the model answered, at its messages and usage row (written in one batch)',
    command: 'BatchWriteItemCommand',
    match: (i) =>
      Object.values((i.RequestItems ?? {}) as Record<string, { PutRequest?: { Item?: { role?: string } } }[]>)
        .flat()
        .some((r) => r.PutRequest?.Item?.role === 'user'),
  },
  {
    name: 'at the last touch that closes the turn and gives the lease back',
    command: 'UpdateItemCommand',
    match: (i) => key(i).sk === 'SESSION' && /REMOVE.*openTurnId/.test(String(i.UpdateExpression)) && !String(i.ConditionExpression).includes(':t'),
  },
];

describe('crash between two writes of a chat turn', () => {
  let p: TestPlatform;
  let t: PlatformTable;
  let fault: Fault | undefined;
  usePlatformAndTable({ visibilityDelayMs: 0 }, (started) => ({ p, t } = started));
  afterAll(() => fault?.remove());

  it.each(TURN_CRASH_POINTS)('a turn crashing $name is never half-visible, and the next turn takes it out', async ({ command, match }) => {
    const w = await chatWorld(p);
    const say = (content: string, chatSessionId?: string) =>
      chat(p, w.chatKey, { model: w.appNameId, messages: [{ role: 'user', content }], ...(chatSessionId ? { chatSessionId } : {}) });
    const exported = async (id: string) =>
      ((await p.call('GET', `/api/v1/org/sessions/${id}/messages`, { token: w.orgKey })).body.data.messages as { content: string }[]).map((m) => m.content);
    const first = await say('first turn');
    const id = first.body.chatSessionId as string;

    fault = injectFault(t, { command, match });
    const crashed = await say('crashed turn', id);
    fault.remove();
    expect(fault.fired).toBe(true);
    expect(crashed.status).toBe(500);
    // Whole or nothing: the crashed turn's messages are not in the export, not even its user message.
    const afterCrash = await exported(id);
    expect(afterCrash).toHaveLength(2);
    expect(afterCrash.some((c) => c.includes('crashed turn'))).toBe(false);

    const next = await say('next turn', id);
    expect(next.status, next.text).toBe(200);
    const contents = await exported(id);
    expect(contents).toHaveLength(4);
    expect(contents[2]).toBe('next turn');
    expect(contents.some((c) => c.includes('crashed turn'))).toBe(false);
    // Taken out of the table too, not only hidden; and the turn is closed.
    const items = await itemsUnder(t, `SESSION#${id}`);
    expect(items.filter((x) => String(x.sk).startsWith('MSG#'))).toHaveLength(4);
    expect(items.find((x) => x.sk === 'SESSION')?.openTurnId).toBeUndefined();
  });
});
