/**
 * The DynamoDB calls of one plain chat turn (POST /api/v1/chat/completions, offline model, no files,
 * variables, tools or Idempotency-Key), by kind, on a new session and on a continued one, counted on
 * the document client every adapter of the local platform shares. The counts are exact: a call added
 * to a turn's path fails here until it is argued for. The clock is pinned, so the key's last-use write
 * (at most once a minute) and the rate counter's window do not move between turns, and no sequence is
 * slow enough to be touched again; usage ids come from the counter in blocks, which the first turn takes.
 * Both: the rate counter beside one batch read of the org, app and month spend; after the model, one
 * batch of the messages and usage row, then one write that closes the turn and gives the lease back,
 * beside the charge (spend, credits). A new session adds its reservation and its creation (with the turn
 * open); a continued one takes the lease and opens the turn in one write, then reads the session with its
 * transcript in one query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat, chatWorld, type ChatWorld } from '../support/chat';
import { TestClock } from '../support/clock';
import { countCalls, tableOf } from '../support/store';
import { startTestPlatform, type TestPlatform } from '../support/platform';

describe('the DynamoDB calls of a plain chat turn', () => {
  let p: TestPlatform;
  let w: ChatWorld;
  let calls: ReturnType<typeof countCalls>;
  beforeAll(async () => {
    p = await startTestPlatform({ clock: new TestClock('2026-11-29T10:00:00.000Z', false) });
    w = await chatWorld(p);
    calls = countCalls(tableOf(p));
  });
  afterAll(async () => {
    await p.stop();
  });

  /** The calls of one turn, by kind. */
  async function counted(sessionId?: string): Promise<{ sessionId: string; calls: Record<string, number> }> {
    calls.clear();
    const res = await chat(p, w.chatKey, {
      model: w.appNameId,
      messages: [{ role: 'user', content: 'Count my calls' }],
      ...(sessionId ? { chatSessionId: sessionId } : {}),
    });
    expect(res.status, res.text).toBe(200);
    return { sessionId: res.body.chatSessionId, calls: calls.counts() };
  }

  it('makes exactly these calls on a new session and on a continued one', async () => {
    // A first turn warms the key's grant and records its last use, which later turns do not repeat.
    const first = await counted();
    const fresh = await counted();
    expect(fresh.calls).toEqual({ BatchGetItem: 1, BatchWriteItem: 1, PutItem: 2, UpdateItem: 4 });
    const continued = await counted(first.sessionId);
    expect(continued.calls).toEqual({ BatchGetItem: 1, BatchWriteItem: 1, Query: 1, UpdateItem: 5 });
  });

  it('a continued turn refused after it opened its turn closes it: the next turn makes the same calls', async () => {
    const { sessionId } = await counted();
    // A tool result answering no call is refused once the transcript is read, with the turn already open.
    const refused = await chat(p, w.chatKey, {
      model: w.appNameId,
      chatSessionId: sessionId,
      messages: [{ role: 'tool', tool_call_id: 'call_nowhere', content: '{}' }],
    });
    expect(refused.status, refused.text).toBe(400);
    const next = await counted(sessionId);
    expect(next.calls).toEqual({ BatchGetItem: 1, BatchWriteItem: 1, Query: 1, UpdateItem: 5 });
  });
});
