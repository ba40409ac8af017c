/**
 * A turn being written while its session is removed must not leave message content behind: the
 * removal may list the session's messages before the turn writes its own.
 */
import { describe, expect, it } from 'vitest';
import { appendToSession, startSession } from '../../functions/chat/app/record-session-activity';
import type { TestPlatform } from '../support/platform';
import { itemsUnder, usePlatformAndTable, type PlatformTable } from '../support/store';

describe('append racing a session removal', () => {
  let p: TestPlatform;
  let t: PlatformTable;
  usePlatformAndTable({}, (started) => ({ p, t } = started));

  it('takes the turn back out when the session was hidden before the turn finished', async () => {
    const f = await p.fixture();
    const session = await startSession(p.deps, { appId: f.appId, title: 'racing' });
    // The removal runs in full right after the messages are written, i.e. between the turn's writes.
    let removed = false;
    const sessions = p.deps.sessions;
    const racing = Object.assign(Object.create(Object.getPrototypeOf(sessions)) as typeof sessions, sessions, {
      putMessages: async (m: Parameters<typeof sessions.putMessages>[0]) => {
        await sessions.putMessages(m);
        if (!removed) {
          removed = true;
          await sessions.remove(session.id, p.deps.clock.nowUs());
        }
      },
    });
    await expect(
      appendToSession(
        { ...p.deps, sessions: racing },
        {
          sessionId: session.id,
          messages: [
            { role: 'user', content: 'secret one' },
            { role: 'assistant', content: 'secret two' },
          ],
        },
      ),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(await itemsUnder(t, `SESSION#${session.id}`)).toEqual([]);
  });
});
