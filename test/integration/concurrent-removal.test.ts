/**
 * Two removals of the same session at once (a session delete racing the delete of its consumer, or
 * of its app): whichever finishes second finds the work done. Found by the export convergence test,
 * where the consumer delete answered 500 and left the consumer's other sessions for the sweep.
 */
import { describe, expect, it } from 'vitest';
import { delayWrites } from '../support/export-truth';
import { seedSessions } from '../support/imports';
import type { TestPlatform } from '../support/platform';
import { itemsUnder, usePlatformAndTable, type PlatformTable } from '../support/store';

describe('concurrent removal of one session', () => {
  let p: TestPlatform;
  let t: PlatformTable;
  usePlatformAndTable({}, (started) => ({ p, t } = started));

  it('succeeds for both when the second hides the session after the first removed it', async () => {
    const f = await p.fixture();
    const [sessionId] = await seedSessions(p, f.appId, [{ email: null, messages: ['2026-01-01T00:00:01Z', '2026-01-01T00:00:02Z'] }]);
    // Both read the session before either hides it: the first hide waits while the other removal reads,
    // hides and removes everything, then lands on a session that is gone.
    const late = delayWrites(t, {
      every: 1,
      delayMs: (n) => (n === 1 ? 300 : 0),
      match: (command, input) => command === 'UpdateItemCommand' && String(input.UpdateExpression).includes('deletedAtUs'),
    });
    try {
      const now = p.deps.clock.nowUs();
      await expect(Promise.all([p.deps.sessions.remove(sessionId!, now), p.deps.sessions.remove(sessionId!, now)])).resolves.toEqual([undefined, undefined]);
    } finally {
      late.remove();
    }
    expect(late.delayed).toBe(2); // both hid the session: the race happened
    expect(await itemsUnder(t, `SESSION#${sessionId}`)).toEqual([]);
  });
});
