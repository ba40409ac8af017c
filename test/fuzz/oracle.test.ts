/**
 * The fuzz oracle and the raw HTTP client on known answers: a judge that passes everything, or a client
 * that misreads an answer, would make the hostile-input suite prove nothing.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crashExcerpt } from './platform-session';
import type { HostileRequest } from './hostile-request';
import { loadModel } from './openapi-model';
import { judge } from './oracle';
import { exchange, isAnswer, type RawAnswer } from './raw-http';

const model = loadModel();
const req = (method: string, target: string, extra: Partial<HostileRequest> = {}): HostileRequest => ({
  op: 'x',
  cls: 'target',
  variant: 'x',
  method,
  target,
  headers: [],
  framing: 'length',
  ...extra,
});
const answer = (status: number, body: unknown, headers: [string, string][] = []): RawAnswer => ({
  status,
  headers: [['Content-Type', 'application/json; charset=utf-8'], ...headers],
  body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
});
const exportError = { error: { code: 'bad_request', message: 'x' } };

describe('oracle', () => {
  it('passes documented answers and router answers in the area shape', () => {
    expect(judge(model, req('GET', '/api/v1/org/apps?limit=x'), answer(400, exportError))).toBeUndefined();
    expect(judge(model, req('GET', '/api/v1/chat/nothing'), answer(404, { error: 'No such route' }))).toBeUndefined();
    expect(judge(model, req('GET', '/nothing'), answer(404, { error: { code: 'not_found', message: 'x' } }))).toBeUndefined();
    expect(judge(model, req('DELETE', '/api/v1/org/apps'), answer(405, exportError, [['Allow', 'GET']]))).toBeUndefined();
    expect(judge(model, req('POST', '/api/v1/chat/files'), answer(503, { error: 'busy' }))).toBeUndefined();
    expect(judge(model, req('GET', '/api/v1/models/x'), answer(404, { error: 'Model not found: x' }))).toBeUndefined();
    expect(judge(model, req('GET', '/api/v1/models/x/y'), answer(404, { error: 'No such route' }))).toBeUndefined();
    expect(judge(model, req('GET', '/api/v1/models/x'), answer(404, exportError))?.rule).toBe('body');
  });

  it('fails a 5xx, an undocumented status, a wrong shape, a non-JSON error and a 405 without Allow', () => {
    expect(judge(model, req('GET', '/api/v1/org/apps'), answer(500, exportError))?.rule).toBe('5xx');
    expect(judge(model, req('GET', '/api/v1/org/apps'), answer(503, exportError))?.rule).toBe('5xx');
    expect(judge(model, req('GET', '/api/v1/org/apps'), answer(417, ''))?.rule).toBe('status');
    expect(judge(model, req('POST', '/api/v1/chat/completions'), answer(400, exportError))?.rule).toBe('body');
    expect(judge(model, req('POST', '/acp/a/checkout_sessions'), answer(400, exportError))?.rule).toBe('body');
    expect(judge(model, req('GET', '/nothing'), { status: 400, headers: [], body: Buffer.alloc(0) })?.rule).toBe('body');
    expect(judge(model, req('PUT', '/api/v1/chat/completions'), answer(405, { error: 'x' }))?.rule).toBe('allow');
    expect(judge(model, req('FOO', '/api/v1/org/apps', { expect: [405] }), answer(400, exportError))?.rule).toBe('status');
  });

  it('owes no answer to a client that gave up, and every other client one', () => {
    expect(judge(model, req('POST', '/api/v1/chat/files', { abandon: true }), { error: 'reset' })).toBeUndefined();
    expect(judge(model, req('POST', '/api/v1/chat/files'), { error: 'reset' })?.rule).toBe('answer');
  });
});

describe('crash report', () => {
  it("shows the uncaught exception from a dead process's stderr, not the logs before it", () => {
    const tail =
      '  metadata: { httpStatusCode: 400 }\n}\n/work/main/functions/x.ts:59\n  code frame\n\nTypeError: boom\n    at f (/work/main/functions/x.ts:59:67)\n';
    expect(crashExcerpt(tail)).toMatch(/^\/work\/main\/functions\/x\.ts:59\n[\s\S]*TypeError: boom/);
  });
});

describe('raw HTTP client', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((socket) => {
      socket.once('data', (d) => {
        const path = d.toString('latin1').split(' ')[1];
        if (path === '/chunked')
          socket.end('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n');
        else if (path === '/close') socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\nbody');
        else socket.resetAndDestroy();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  const get = (path: string) =>
    exchange({ host: '127.0.0.1', port, localAddress: '127.0.0.9', head: Buffer.from(`GET ${path} HTTP/1.1\r\n\r\n`), timeoutMs: 2000 });

  it('reads chunked and close-delimited answers, skipping 1xx, and reports a reset as no answer', async () => {
    const chunked = await get('/chunked');
    expect(isAnswer(chunked) && [chunked.status, chunked.body.toString()]).toEqual([200, 'abcde']);
    const closed = await get('/close');
    expect(isAnswer(closed) && [closed.status, closed.body.toString()]).toEqual([400, 'body']);
    expect(isAnswer(await get('/reset'))).toBe(false);
  });
});
