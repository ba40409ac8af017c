/**
 * Oversize chat input, over HTTP against the local platform, decided before anything
 * is written, in area B's `{ error: string }` shape:
 * - one message: at most 256 KiB of UTF-8 (a message is one DynamoDB item): exactly 256 KiB is a turn
 *   exported whole, one byte more is a 400, ASCII and multi-byte alike;
 * - the whole request: at most 5 MiB, one byte more is a 413;
 * - a body over the transport limit (10 MB, API Gateway's) is answered with the gateway's 413, with or
 *   without a Content-Length, and never read to its end: the client reads the answer instead of a reset.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CHAT_REQUEST_BYTES } from '../../functions/kernel/domain/body-limits';
import { MAX_MESSAGE_BYTES } from '../../functions/chat/domain/turn-fields';
import { chat, chatWorld, type ChatWorld } from '../support/chat';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { sendUntilAnswered } from '../support/uploads';

/** Sends `totalBytes` of a JSON-looking body in 64 KiB chunks on a raw connection; stops when answered. */
function sendLarge(p: TestPlatform, token: string, totalBytes: number, declareLength: boolean) {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let left = totalBytes;
  const next = () => {
    if (left <= 0) return undefined;
    const piece = chunk.subarray(0, Math.min(chunk.length, left));
    left -= piece.length;
    return piece;
  };
  return sendUntilAnswered(
    new URL(`${p.baseUrl}/api/v1/chat/completions`),
    { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    { totalBytes, declareLength, next },
  );
}

describe('oversize chat input', () => {
  let p: TestPlatform;
  let w: ChatWorld;
  beforeAll(async () => {
    p = await startTestPlatform({ visibilityDelayMs: 0 });
    w = await chatWorld(p);
  });
  afterAll(() => p.stop());

  const sessionIds = async () => (await p.call('GET', '/api/v1/org/sessions?limit=100', { token: w.orgKey })).body.data.map((s: { id: string }) => s.id).sort();
  const turn = (messages: { role: string; content: string }[]) => chat(p, w.chatKey, { model: w.appNameId, messages });

  it('takes a message of exactly 256 KiB and exports it whole', async () => {
    const content = 'x'.repeat(MAX_MESSAGE_BYTES);
    const res = await turn([{ role: 'user', content }]);
    expect(res.status, res.text.slice(0, 200)).toBe(200);
    const messages = await p.call('GET', `/api/v1/org/sessions/${res.body.chatSessionId}/messages`, { token: w.orgKey });
    expect(messages.body.data.messages[0].content).toBe(content);
  });

  it.each([
    ['ASCII', 'x'.repeat(MAX_MESSAGE_BYTES + 1)],
    ['two-byte characters', `${'é'.repeat(MAX_MESSAGE_BYTES / 2)}x`],
    ['four-byte characters', `${'😀'.repeat(MAX_MESSAGE_BYTES / 4)}x`],
  ])('refuses one byte over 256 KiB (%s) with a 400, writing nothing', async (_, content) => {
    const before = await sessionIds();
    const res = await turn([{ role: 'user', content }]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: `messages[0].content is too large: at most ${MAX_MESSAGE_BYTES} bytes (256 KiB) of UTF-8 per message` });
    expect(await sessionIds()).toEqual(before);
  });

  it('takes exactly 256 KiB of multi-byte text', async () => {
    const res = await turn([{ role: 'user', content: 'é'.repeat(MAX_MESSAGE_BYTES / 2) }]);
    expect(res.status, res.text.slice(0, 200)).toBe(200);
  });

  it('refuses a request over 5 MiB with a 413 in the chat shape, writing nothing', async () => {
    const before = await sessionIds();
    const piece = 'x'.repeat(MAX_MESSAGE_BYTES - 100);
    const messages = Array.from({ length: Math.ceil(MAX_CHAT_REQUEST_BYTES / piece.length) + 1 }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: piece,
    }));
    messages.push({ role: 'user', content: 'and now?' });
    const res = await turn(messages);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: `Request body too large: at most ${MAX_CHAT_REQUEST_BYTES} bytes (5 MiB)` });
    expect(await sessionIds()).toEqual(before);
  });

  it.each([
    ['with a Content-Length', true],
    ['chunked', false],
  ])('answers a 30 MB body (%s) with the gateway 413 instead of dropping the connection', async (_, declareLength) => {
    const res = await sendLarge(p, w.chatKey, 30 * 1024 * 1024, declareLength);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ error: 'Request body too large' });
    // Refused at the limit, not after reading the whole body.
    expect(res.sentBeforeAnswer).toBeLessThan(20 * 1024 * 1024);
  });
});
