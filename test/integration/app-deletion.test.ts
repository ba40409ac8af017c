import { describe, expect, it } from 'vitest';
import { processAppDeletion } from '../../functions/conversations/app/process-app-deletion';
import { seedSessions, type SeedSession } from '../support/imports';
import type { TestPlatform } from '../support/platform';
import { appLeftovers, itemsUnder, orgSessionIds, tombstonesOf, usePlatformAndTable, type PlatformTable } from '../support/store';

/** 60 sessions: 20 of 5 known consumers, 20 of 20 anonymous consumers, 20 without a consumer. */
function sixtySessions(): SeedSession[] {
  return Array.from({ length: 60 }, (_, i) => {
    const messages = i % 3 === 0 ? [] : ['2026-01-01T00:00:01Z', '2026-01-01T00:00:02Z'];
    if (i < 20) return { email: `user${i % 5}@example.com`, messages };
    if (i < 40) return { email: null, messages };
    return { messages };
  });
}

describe('app deletion', () => {
  let p: TestPlatform;
  let t: PlatformTable;
  usePlatformAndTable({ appDeletionBatchSize: 25 }, (started) => ({ p, t } = started));

  it('hides the app at once, then tombstones (app_deleted) and removes every session and consumer in batches', async () => {
    const f = await p.fixture();
    const survivor = await p.admin('POST', `/orgs/${f.orgId}/apps`, { name: 'Survivor' });
    const [survivorSession] = await seedSessions(p, survivor.body.data.id, [{ email: 'user0@example.com', messages: ['2026-01-01T00:00:01Z'] }]);
    const sessionIds = await seedSessions(p, f.appId, sixtySessions());
    const consumerIds = [...new Set((await p.deps.consumers.listByApp(f.appId, 100)).map((c) => c.id))];
    expect(sessionIds).toHaveLength(60);
    expect(consumerIds).toHaveLength(25);

    const del = await p.admin('DELETE', `/apps/${f.appId}`);
    expect(del.status, del.text).toBe(202);
    expect(del.body.data.deletedAt).toMatch(/Z$/);
    // Gone from the apps list at once, before the worker has done anything that matters to it.
    const listed = await p.call('GET', '/api/v1/org/apps', { token: f.orgKey });
    expect(listed.body.data.map((a: { id: string }) => a.id)).toEqual([survivor.body.data.id]);
    expect((await p.admin('GET', `/apps/${f.appId}`)).status).toBe(404);

    await p.drainQueues();

    const tombstones = await tombstonesOf(t, f.orgId);
    const sessionTombstones = tombstones.filter((x) => x.resourceType === 'session');
    const consumerTombstones = tombstones.filter((x) => x.resourceType === 'consumer');
    expect(sessionTombstones.map((x) => x.resourceId).sort()).toEqual([...sessionIds].sort());
    expect(consumerTombstones.map((x) => x.resourceId).sort()).toEqual([...consumerIds].sort());
    expect(tombstones.every((x) => x.cause === 'app_deleted')).toBe(true);
    // Ids break ties when many tombstones share a millisecond: all distinct.
    expect(new Set(tombstones.map((x) => x.id)).size).toBe(tombstones.length);

    expect(await appLeftovers(t, f.appId)).toEqual([]);
    for (const id of sessionIds) expect(await itemsUnder(t, `SESSION#${id}`)).toEqual([]);
    for (const id of consumerIds) expect(await p.deps.consumers.get(id)).toBeUndefined();
    expect(await p.deps.consumers.findByEmail(f.appId, 'user0@example.com')).toBeUndefined();
    expect((await p.deps.apps.listPendingDeletion(100)).map((a) => a.id)).not.toContain(f.appId);
    expect(await orgSessionIds(t, f.orgId)).toEqual([survivorSession]);
    // The other app of the org, and its consumer with a shared email, are untouched.
    expect(await p.deps.sessions.get(survivorSession!)).toBeDefined();
    expect(await p.deps.consumers.findByEmail(survivor.body.data.id, 'user0@example.com')).toBeDefined();

    // Running the deletion again, through the sweep and through a duplicate queue message, writes nothing.
    const sweep = await p.admin('POST', '/jobs/deletion-sweep/runs');
    expect(sweep.status).toBe(200);
    expect(sweep.body.data).toEqual({ job: 'deletion-sweep', result: { queued: 0, finished: 0 } });
    await p.deps.jobs.send({ type: 'app-deletion', appId: f.appId });
    await p.drainQueues();
    const after = await tombstonesOf(t, f.orgId);
    expect(after.map((x) => [x.id, x.deletedAtUs]).sort()).toEqual(tombstones.map((x) => [x.id, x.deletedAtUs]).sort());
  });

  it('works in batches of at most appDeletionBatchSize, sessions first, then consumers', async () => {
    const f = await p.fixture();
    await seedSessions(p, f.appId, sixtySessions());
    // Marked deleted without a queue message, so only the calls below run the deletion.
    await p.deps.apps.markDeleted(f.appId, p.deps.clock.nowUs());
    const steps: { done: boolean; removed: number }[] = [];
    for (let i = 0; i < 10; i++) {
      const step = await processAppDeletion(p.deps, { appId: f.appId });
      steps.push(step);
      if (step.done) break;
    }
    expect(steps).toEqual([
      { done: false, removed: 25 },
      { done: false, removed: 25 },
      { done: false, removed: 10 },
      { done: false, removed: 25 },
      { done: true, removed: 0 },
    ]);
    expect(await appLeftovers(t, f.appId)).toEqual([]);
  });

  it('re-queues a deletion whose message was lost through the sweep job', async () => {
    const f = await p.fixture();
    const sessionIds = await seedSessions(p, f.appId, [{ email: null }, { messages: ['2026-01-01T00:00:01Z'] }]);
    // Mark the app deleted without queueing its message, as if the send had been lost.
    await p.deps.apps.markDeleted(f.appId, p.deps.clock.nowUs());
    expect((await p.deps.apps.listPendingDeletion(100)).map((a) => a.id)).toContain(f.appId);

    const sweep = await p.admin('POST', '/jobs/deletion-sweep/runs');
    expect(sweep.body.data.result.queued).toBeGreaterThanOrEqual(1);
    await p.drainQueues();

    const tombstones = await tombstonesOf(t, f.orgId);
    expect(
      tombstones
        .filter((x) => x.resourceType === 'session')
        .map((x) => x.resourceId)
        .sort(),
    ).toEqual([...sessionIds].sort());
    expect(tombstones.filter((x) => x.resourceType === 'consumer')).toHaveLength(1);
    expect(await appLeftovers(t, f.appId)).toEqual([]);
    expect((await p.deps.apps.listPendingDeletion(100)).map((a) => a.id)).not.toContain(f.appId);
  });
});
