import { describe, expect, it } from 'vitest';
import { TestClock } from '../support/clock';
import { seedSessions } from '../support/imports';
import type { TestPlatform } from '../support/platform';
import { itemsUnder, orgSessionIds, tombstonesOf, usePlatformAndTable, type PlatformTable } from '../support/store';

const HOUR_MS = 3_600_000;

/** The empty-session cleanup job: message-less, inactive sessions go, with no tombstone (a known limitation). */
describe('empty-session-cleanup job', () => {
  const clock = new TestClock('2026-06-01T00:00:00Z');
  let p: TestPlatform;
  let t: PlatformTable;
  usePlatformAndTable({ clock, emptySessionMaxAgeHours: 24 }, (started) => ({ p, t } = started));

  it('removes an old session that never had a message, with no tombstone, and keeps the others', async () => {
    const f = await p.fixture();
    const [empty, withMessages, touchedLater, withConsumer] = await seedSessions(p, f.appId, [
      {},
      { messages: ['2026-05-01T00:00:00Z'] },
      {},
      { email: 'someone@example.com' },
    ]);
    const consumerId = (await p.deps.sessions.get(withConsumer!))!.consumerId!;

    clock.advance(25 * HOUR_MS);
    // A later change to a message-less session counts as activity.
    await p.deps.sessions.touch(touchedLater!, clock.nowUs());
    const [young] = await seedSessions(p, f.appId, [{}]);

    const run = await p.admin('POST', '/jobs/empty-session-cleanup/runs');
    expect(run.status, run.text).toBe(200);
    expect(run.body.data).toEqual({ job: 'empty-session-cleanup', result: { removed: 2 } });

    for (const id of [empty!, withConsumer!]) {
      expect(await p.deps.sessions.get(id)).toBeUndefined();
      expect(await itemsUnder(t, `SESSION#${id}`)).toEqual([]);
    }
    expect(await tombstonesOf(t, f.orgId)).toEqual([]);
    expect((await orgSessionIds(t, f.orgId)).sort()).toEqual([withMessages!, touchedLater!, young!].sort());
    expect((await p.deps.sessions.listMessages(withMessages!)).length).toBe(1);
    // The consumer is not the cleanup's business.
    expect(await p.deps.consumers.get(consumerId)).toBeDefined();

    const again = await p.admin('POST', '/jobs/empty-session-cleanup/runs');
    expect(again.body.data.result).toEqual({ removed: 0 });
  });
});
