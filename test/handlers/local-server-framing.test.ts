import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeMany, headerValue, type RawAnswers } from '../fuzz/raw-http';
import { startTestPlatform, type TestPlatform } from '../support/platform';

/**
 * Bytes after a complete request on one connection: a body longer than its Content-Length, or
 * pipelined requests. The request the bytes follow is answered first; what follows is the next
 * request, answered when it is one, refused in the area's shape when the parser cannot read it.
 * (The first answer used to be lost: the refusal was written over it and the connection closed.)
 */
describe('local HTTP server: bytes past a request', () => {
  let p: TestPlatform;
  let port: number;
  let chatKey: string;
  let orgKey: string;
  let completion: string;
  /** A chat completion request, framed by Content-Length or chunked, and a GET of the org's apps. */
  let sized: string;
  let chunked: string;
  let getApps: string;
  const chatPost = (framing: string) =>
    `POST /api/v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${chatKey}\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`;
  beforeAll(async () => {
    p = await startTestPlatform();
    port = Number(new URL(p.baseUrl).port);
    const f = await p.fixture();
    orgKey = f.orgKey;
    chatKey = (await p.admin('POST', `/apps/${f.appId}/chat-keys`, {})).body.data.key;
    completion = JSON.stringify({ model: f.appNameId, messages: [{ role: 'user', content: 'hi' }] });
    sized = chatPost(`Content-Length: ${completion.length}`) + completion;
    chunked = `${chatPost('Transfer-Encoding: chunked') + completion.length.toString(16)}\r\n${completion}\r\n0\r\n\r\n`;
    getApps = `GET /api/v1/org/apps HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${orgKey}\r\n\r\n`;
  });
  afterAll(() => p.stop());

  /** Sends `bytes` in one write and reads up to `count` answers, until the server closes the connection. */
  const send = (bytes: string, count = 3): Promise<RawAnswers> =>
    exchangeMany({ host: '127.0.0.1', port, head: Buffer.from(bytes, 'utf8'), timeoutMs: 10_000 }, count);
  const json = (body: Buffer) => JSON.parse(body.toString('utf8')) as unknown;

  it('answers a body longer than its Content-Length, then refuses the surplus with a 400 in the same area and closes', async () => {
    for (const [name, first] of [
      ['sized', sized],
      ['chunked', chunked],
    ]) {
      for (const surplus of ['GARBAGE', '\r\nxyz', ' trailing bytes\r\n\r\n', '}]}\r\n']) {
        const { answers, error } = await send(first + surplus);
        expect(
          answers.map((a) => a.status),
          `${name} ${JSON.stringify(surplus)}`,
        ).toEqual([200, 400]);
        expect(json(answers[0]!.body)).toMatchObject({ object: 'chat.completion' });
        expect(json(answers[1]!.body)).toEqual({ error: expect.any(String) });
        expect(headerValue(answers[1]!, 'connection')).toBe('close');
        expect(error).toMatch(/closed/);
      }
    }
  });

  it('answers a pipelined request after the first, whatever the first answer takes', async () => {
    const { answers } = await send(sized + getApps + sized, 3);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(json(answers[1]!.body)).toMatchObject({ data: expect.any(Array) });
  });

  it("refuses a pipelined request the parser cannot read after answering those before it, in that request's area", async () => {
    const unknownMethod = await send(`${sized}FOO /api/v1/org/apps HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(unknownMethod.answers.map((a) => a.status)).toEqual([200, 405]);
    expect(headerValue(unknownMethod.answers[1]!, 'allow')).toBe('GET');
    expect(json(unknownMethod.answers[1]!.body)).toEqual({ error: { code: 'method_not_allowed', message: expect.any(String) } });

    const rawUtf8 = await send(`${sized + getApps}GET /api/v1/org/sessions/é/messages HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(rawUtf8.answers.map((a) => a.status)).toEqual([200, 200, 400]);
    expect(json(rawUtf8.answers[2]!.body)).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });

    const badHeader = await send(`${getApps}GET /acp/x/products HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n`);
    expect(badHeader.answers.map((a) => a.status)).toEqual([200, 400]);
    expect(json(badHeader.answers[1]!.body)).toEqual({ type: 'invalid_request', code: 'invalid', message: expect.any(String) });

    expect((await p.call('GET', '/api/v1/org/apps', { token: orgKey })).status).toBe(200);
  });
});
