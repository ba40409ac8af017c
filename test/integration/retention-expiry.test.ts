import { describe, expect, it } from 'vitest';
import { TestClock } from '../support/clock';
import { seedSessions } from '../support/imports';
import type { TestPlatform } from '../support/platform';
import { itemsUnder, tombstonesOf, usePlatformAndTable, type PlatformTable } from '../support/store';

const DAY_MS = 86_400_000;

/** The anonymous-consumer retention job, on a clock moved past ANON_RETENTION_DAYS. */
describe('retention-expiry job', () => {
  const clock = new TestClock('2026-06-01T00:00:00Z');
  let p: TestPlatform;
  let t: PlatformTable;
  usePlatformAndTable({ clock, anonRetentionDays: 30 }, (started) => ({ p, t } = started));

  it('reclaims stale anonymous consumers with retention_expiry tombstones and keeps known or active ones', async () => {
    const f = await p.fixture();
    const consumerOf = async (sessionId: string) => (await p.deps.sessions.get(sessionId))!.consumerId!;

    // Stale anonymous consumer with two sessions, and one whose only session never had a message.
    const staleSessions = await seedSessions(p, f.appId, [{ email: null, messages: ['2026-05-20T00:00:00Z'] }]);
    const stale = await consumerOf(staleSessions[0]!);
    const [quietSession] = await seedSessions(p, f.appId, [{ email: null, startedAt: '2026-05-30T00:00:00Z' }]);
    const quiet = await consumerOf(quietSession!);
    // Known consumer, equally old: never reclaimed by this job.
    const [knownSession] = await seedSessions(p, f.appId, [{ email: 'kept@example.com', messages: ['2026-05-20T00:00:00Z'] }]);
    const known = await consumerOf(knownSession!);
    // Anonymous consumer with a message well inside the retention window (as seen after the clock moves).
    const [recentSession] = await seedSessions(p, f.appId, [{ email: null, messages: ['2026-05-20T00:00:00Z', '2026-06-30T12:00:00Z'] }]);
    const recent = await consumerOf(recentSession!);
    // Anonymous consumer whose recorded activity is stale but whose session got a message later: the job
    // re-checks the sessions before removing anything.
    const [lateSession] = await seedSessions(p, f.appId, [{ email: null, messages: ['2026-05-20T00:00:00Z'] }]);
    const late = await consumerOf(lateSession!);

    clock.advance(31 * DAY_MS);
    const now = clock.nowUs();
    await p.deps.sessions.touch(lateSession!, now, now);

    const run = await p.admin('POST', '/jobs/retention-expiry/runs');
    expect(run.status, run.text).toBe(200);
    expect(run.body.data).toEqual({ job: 'retention-expiry', result: { expired: 2, kept: 1 } });

    const tombstones = await tombstonesOf(t, f.orgId);
    expect(tombstones.every((x) => x.cause === 'retention_expiry')).toBe(true);
    expect(
      tombstones
        .filter((x) => x.resourceType === 'consumer')
        .map((x) => x.resourceId)
        .sort(),
    ).toEqual([stale, quiet].sort());
    expect(
      tombstones
        .filter((x) => x.resourceType === 'session')
        .map((x) => x.resourceId)
        .sort(),
    ).toEqual([...staleSessions, quietSession!].sort());

    for (const id of [stale, quiet]) expect(await p.deps.consumers.get(id)).toBeUndefined();
    for (const id of [...staleSessions, quietSession!]) expect(await itemsUnder(t, `SESSION#${id}`)).toEqual([]);
    for (const id of [known, recent, late]) expect(await p.deps.consumers.get(id)).toBeDefined();
    for (const id of [knownSession!, recentSession!, lateSession!]) expect(await p.deps.sessions.get(id)).toBeDefined();
    // The active consumer was re-filed under its real activity, so the next run does not look at it again.
    expect((await p.deps.consumers.get(late))!.lastActiveAtUs).toBe(now);

    const again = await p.admin('POST', '/jobs/retention-expiry/runs');
    expect(again.body.data.result).toEqual({ expired: 0, kept: 0 });
    expect(await tombstonesOf(t, f.orgId)).toHaveLength(tombstones.length);
  });
});
