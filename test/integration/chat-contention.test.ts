/**
 * Concurrent turns on one chat session (docs/adr/0022), over HTTP against the local
 * platform: one turn at a time holds the session's lease; the others wait for it (bounded) or answer
 * 409 with Retry-After having written nothing. Never a 500; every 200 turn is exported exactly once, its
 * user and assistant messages next to each other; a failed turn gives the lease back; a crashed turn's
 * lease runs out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_BUSY_MESSAGE, TURN_LEASE_MS } from '../../functions/chat/app/prepare-chat-turn';
import { chat, chatWorld, patchSettings, type ChatWorld } from '../support/chat';
import { TestClock } from '../support/clock';
import { startTestPlatform, type TestPlatform } from '../support/platform';

describe('concurrent turns on one chat session', () => {
  const clock = new TestClock('2026-11-20T10:00:00.000Z');
  let p: TestPlatform;
  let w: ChatWorld;
  beforeAll(async () => {
    // `openai:` models talk to a closed port: their turns fail after the lease was taken.
    p = await startTestPlatform({ visibilityDelayMs: 0, clock, openAiBaseUrl: 'http://127.0.0.1:9/v1', openAiApiKey: 'sk-test' });
    w = await chatWorld(p);
  });
  afterAll(() => p.stop());

  const turn = (content: string, chatSessionId?: string, stream = false) =>
    chat(p, w.chatKey, {
      model: w.appNameId,
      messages: [{ role: 'user', content }],
      ...(chatSessionId ? { chatSessionId } : {}),
      ...(stream ? { stream: true } : {}),
    });
  const exported = async (sessionId: string) =>
    (await p.call('GET', `/api/v1/org/sessions/${sessionId}/messages`, { token: w.orgKey })).body.data.messages as { role: string; content: string }[];

  it('40 concurrent turns: each is a 200 or a 409 with Retry-After, and every 200 is exported exactly once, in one piece', async () => {
    const first = await turn('start');
    expect(first.status).toBe(200);
    const id = first.body.chatSessionId as string;
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => turn(`concurrent ${i}`, id, i % 3 === 0)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s !== 200 && s !== 409)).toEqual([]);
    for (const busy of results.filter((r) => r.status === 409)) {
      expect(busy.body).toEqual({ error: SESSION_BUSY_MESSAGE });
      expect(busy.headers.get('retry-after')).toBe('1');
    }
    const ok = results
      .map((r, i) => ({ r, i }))
      .filter((x) => x.r.status === 200)
      .map((x) => `concurrent ${x.i}`);
    expect(ok.length).toBeGreaterThan(0);
    const messages = await exported(id);
    expect(messages).toHaveLength(2 + 2 * ok.length);
    const users = messages.filter((m) => m.role === 'user').map((m) => m.content);
    expect(users.slice(1).sort()).toEqual([...ok].sort());
    // Turns never interleave: each user message is followed by its assistant answer.
    messages.forEach((m, i) => {
      expect(m.role).toBe(i % 2 === 0 ? 'user' : 'assistant');
    });
    for (let i = 0; i < messages.length; i += 2) expect(messages[i + 1]!.content).toContain(messages[i]!.content);
  });

  it('a turn that fails gives the lease back: the next turn is not busy', async () => {
    const first = await turn('hello');
    const id = first.body.chatSessionId as string;
    await patchSettings(p, w.appId, { model: 'openai:gpt-4o-mini' });
    const failed = await turn('this one fails', id);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    await patchSettings(p, w.appId, { model: 'offline' });
    const started = Date.now();
    const next = await turn('and this one works', id);
    expect(next.status, next.text).toBe(200);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a lease left by a crashed turn blocks the session only until it runs out', async () => {
    const first = await turn('crash soon');
    const id = first.body.chatSessionId as string;
    // What a process killed mid-turn leaves behind: a lease nobody releases.
    const now = clock.nowUs();
    expect(await p.deps.sessions.acquireTurnLease(id, 'crashed-turn', now, now + TURN_LEASE_MS * 1000)).toBe(true);
    const busy = await turn('while the lease holds', id);
    expect(busy.status).toBe(409);
    clock.advance(TURN_LEASE_MS + 1_000);
    const after = await turn('after it ran out', id);
    expect(after.status, after.text).toBe(200);
    expect((await exported(id)).map((m) => m.content)).not.toContain('while the lease holds');
  });
});
