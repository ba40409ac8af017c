import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, headerValue, isAnswer, type RawAnswer } from '../fuzz/raw-http';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { ACP_VERSION } from '../support/acp-client';

/**
 * The local front door's own answers, for requests no route handles or Node's parser refuses. Each
 * class below used to end in an uncaught exception (the process gone), a 500, or an empty body.
 */
describe('local HTTP server', () => {
  let p: TestPlatform;
  let port: number;
  let chatKey: string;
  let orgKey: string;
  beforeAll(async () => {
    p = await startTestPlatform();
    port = Number(new URL(p.baseUrl).port);
    const f = await p.fixture();
    orgKey = f.orgKey;
    chatKey = (await p.admin('POST', `/apps/${f.appId}/chat-keys`, {})).body.data.key;
  });
  afterAll(() => p.stop());

  const raw = async (head: string | Buffer, body: Buffer[] = []): Promise<RawAnswer> => {
    const answer = await exchange({ host: '127.0.0.1', port, head: typeof head === 'string' ? Buffer.from(head, 'latin1') : head, body, timeoutMs: 10_000 });
    if (!isAnswer(answer)) throw new Error(`no answer: ${answer.error}`);
    return answer;
  };
  const json = (a: RawAnswer) => JSON.parse(a.body.toString('utf8')) as Record<string, unknown>;
  /** The platform still serves a plain request after whatever came before. */
  const stillServing = async () => expect((await p.call('GET', '/api/v1/org/apps', { token: orgKey })).status).toBe(200);

  it('answers an unknown path with a 404 JSON error', async () => {
    for (const path of ['/', '/api/v1/org', '/api/v1/org/apps/extra', '/api/v2/org/apps', '/admin/v1/nothing', '/API/V1/ORG/APPS']) {
      const res = await p.call('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    }
  });

  it('answers request-targets the URL parser refuses (//, /\\, //[/x, absolute-form, *) with a 404, and keeps serving', async () => {
    for (const target of ['//', '/\\', '//:99999/x', '//[/x', '//%zz/x', '//%00/x', 'http://evil.example/x', '*', '/%', '/?%zz=%zz']) {
      const res = await raw(`GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(res.status, target).toBe(404);
      expect(json(res), target).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    }
    await stillServing();
  });

  it("answers an unknown path under an area's prefix as API Gateway does there, in that area's error shape", async () => {
    const chat = await p.call('GET', '/api/v1/chat/nothing', { headers: { 'X-Correlation-ID': 'unknown-1' } });
    expect(chat.status).toBe(404);
    expect(chat.body).toEqual({ error: 'No such route' });
    expect(chat.headers.get('x-correlation-id')).toBe('unknown-1');
    const org = await p.call('GET', '/api/v1/org/nothing');
    expect(org.status).toBe(404);
    expect(org.body).toEqual({ error: { code: 'not_found', message: 'No such route' } });
  });

  it("answers a known path with a wrong method with a 405 and an Allow header, in the area's error shape", async () => {
    const res = await p.call('POST', '/api/v1/org/apps', { body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({ error: { code: 'method_not_allowed', message: expect.any(String) } });

    const apps = await p.call('PUT', '/admin/v1/apps/some-id', { token: p.adminToken, body: {} });
    expect(apps.status).toBe(405);
    expect(apps.headers.get('allow')?.split(', ').sort()).toEqual(['DELETE', 'GET', 'PATCH']);
    expect(apps.body.error.code).toBe('method_not_allowed');

    const chat = await p.call('GET', '/api/v1/chat/completions');
    expect(chat.status).toBe(405);
    expect(chat.body).toEqual({ error: expect.stringContaining('not allowed') });
    const acp = await p.call('DELETE', '/acp/some-app/checkout_sessions');
    expect(acp.status).toBe(405);
    expect(acp.body).toEqual({ type: 'invalid_request', code: 'method_not_allowed', message: expect.any(String) });
  });

  it('answers methods Node does not know (unknown tokens, lowercase) with a 405 in the area shape, or 404 off every route', async () => {
    for (const method of ['FOO', 'get', 'X'.repeat(100)]) {
      const chat = await raw(`${method} /api/v1/chat/completions HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(chat.status, method).toBe(405);
      expect(headerValue(chat, 'allow')).toBe('POST');
      expect(json(chat)).toEqual({ error: expect.any(String) });
      const nowhere = await raw(`${method} /nowhere HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(nowhere.status, method).toBe(404);
    }
    await stillServing();
  });

  it('names no resource with a path id whose percent-encoding is malformed: 404 in the area shape', async () => {
    const admin = await p.call('GET', '/admin/v1/orgs/%ZZ', { token: p.adminToken });
    expect(admin.status).toBe(404);
    expect(admin.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    const org = await p.call('GET', '/api/v1/org/sessions/%zz/messages', { token: orgKey });
    expect(org.status).toBe(404);
    expect(org.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });

  it('takes query and header names such as __proto__ and constructor as plain names, never a 500', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const query = await p.call('GET', `/api/v1/org/sessions?${name}=1`, { token: orgKey });
      expect(query.status, name).toBe(400);
      expect(query.body.error.message).toBe(`Unrecognized query parameter: ${name}`);
      const header = await raw(`GET /api/v1/org/apps HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${orgKey}\r\n${name}: 1\r\n\r\n`);
      expect(header.status, name).toBe(200);
      const feed = await p.call('GET', `/api/v1/release-notes/feed?${name}=x`);
      expect(feed.status, name).toBeLessThan(500);
    }
  });

  it("answers what Node's parser refuses in the area shape: raw UTF-8, TE with CL, bad header bytes (400), 20 KB of headers (431), a 9 KB target (414)", async () => {
    const utf8 = await raw(Buffer.from('GET /api/v1/org/sessions/é/messages HTTP/1.1\r\nHost: x\r\n\r\n', 'utf8'));
    expect(utf8.status).toBe(400);
    expect(json(utf8)).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
    const teCl = await raw('POST /api/v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n');
    expect(teCl.status).toBe(400);
    expect(json(teCl)).toEqual({ error: expect.any(String) });
    const badHeader = await raw('GET /acp/x/products HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n');
    expect(badHeader.status).toBe(400);
    expect(json(badHeader)).toEqual({ type: 'invalid_request', code: 'invalid', message: expect.any(String) });
    const big = await raw(`GET /api/v1/org/apps HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(big.status).toBe(431);
    expect(json(big)).toEqual({ error: { code: 'headers_too_large', message: expect.any(String) } });
    for (const size of [9_000, 20_000]) {
      const long = await raw(`GET /api/v1/chat/completions?x=${'a'.repeat(size)} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(long.status, String(size)).toBe(414);
      expect(json(long)).toEqual({ error: expect.any(String) });
    }
    await stillServing();
  });

  it('answers a body over 10 MB with a 413 the client receives, with Connection: close, chunked or not', async () => {
    const head = (framing: string) =>
      `POST /api/v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${chatKey}\r\nContent-Type: application/json\r\n${framing}\r\nConnection: close\r\n\r\n`;
    const sized = await raw(head('Content-Length: 12000000'), [Buffer.alloc(12_000_000, 97)]);
    expect(sized.status).toBe(413);
    expect(json(sized)).toEqual({ error: 'Request body too large' });
    const chunk = Buffer.concat([Buffer.from('100000\r\n'), Buffer.alloc(0x100000, 97), Buffer.from('\r\n')]);
    const chunked = await raw(head('Transfer-Encoding: chunked'), [...Array.from({ length: 12 }, () => chunk), Buffer.from('0\r\n\r\n')]);
    expect(chunked.status).toBe(413);
    await stillServing();
  });

  it('answers an upload whose file part never reaches its closing boundary with a 400, and keeps serving', async () => {
    const parts = [
      '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n',
      '--XX\r\nContent-Disposition: form-data; name="other"; filename="b.png"\r\n\r\n',
    ];
    for (const part of parts) {
      const body = Buffer.concat([Buffer.from(part, 'latin1'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x61, 0x62, 0x63])]);
      const res = await raw(
        `POST /api/v1/chat/files HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${chatKey}\r\nContent-Type: multipart/form-data; boundary=XX\r\nContent-Length: ${body.length}\r\n\r\n`,
        [body],
      );
      expect(res.status).toBe(400);
      expect(json(res)).toEqual({ error: expect.stringContaining('multipart') });
    }
    await stillServing();
  });

  it('serves a request with an Expect it does not know, answers a request without Host with a 400 in the area shape, and CONNECT with a 405 or 404', async () => {
    const expectation = await raw(`GET /api/v1/org/apps HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${orgKey}\r\nExpect: x-unknown\r\n\r\n`);
    expect(expectation.status).toBe(200);
    const noHost = await raw('GET /api/v1/chat/completions HTTP/1.1\r\n\r\n');
    expect(noHost.status).toBe(400);
    expect(json(noHost)).toEqual({ error: expect.stringContaining('Host') });
    const connectRoute = await raw('CONNECT /api/v1/org/apps HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(connectRoute.status).toBe(405);
    expect(json(connectRoute)).toEqual({ error: { code: 'method_not_allowed', message: expect.any(String) } });
    const connectHost = await raw('CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n');
    expect(connectHost.status).toBe(404);
    await stillServing();
  });

  it('answers JSON nested deeper than 64 levels with a 400 in every area, before any check walks it', async () => {
    for (const depth of [65, 10_000, 100_000]) {
      const body = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      const nested = `{"line_items":${body}}`;
      const chat = await p.call('POST', '/api/v1/chat/completions', { token: chatKey, body: `{"model":"x","messages":${body}}` });
      expect(chat.status, String(depth)).toBe(400);
      expect(chat.body).toEqual({ error: expect.stringContaining('nested deeper than 64') });
      const sub = await p.call('POST', '/api/v1/release-notes/subscriptions', { body: nested });
      expect(sub.status, String(depth)).toBe(400);
    }
    await stillServing();
  });

  it('answers an upload part without a name, or a field without one, with a 400 (it used to end the process)', async () => {
    for (const part of [
      'Content-Disposition: form-data; filename="a.png"',
      'Content-Disposition: form-data; name=""; filename="a.png"',
      'Content-Disposition: form-data',
    ]) {
      const body = Buffer.from(`--XX\r\n${part}\r\n\r\nabc\r\n--XX--\r\n`, 'latin1');
      const res = await raw(
        `POST /api/v1/chat/files HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${chatKey}\r\nContent-Type: multipart/form-data; boundary=XX\r\nContent-Length: ${body.length}\r\n\r\n`,
        [body],
      );
      expect(res.status, part).toBe(400);
      expect(json(res)).toEqual({ error: expect.any(String) });
    }
    await stillServing();
  });

  it('keys an Idempotency-Key by a digest: a 2 KB path id with a long key is a 404, never a DynamoDB key error', async () => {
    const f = await p.fixture();
    const acpKey = (await p.admin('POST', `/apps/${f.appId}/acp-keys`, {})).body.data.key;
    for (const id of ['a'.repeat(2048), 'é'.repeat(1000)]) {
      const res = await p.call('POST', `/acp/${f.appId}/checkout_sessions/${encodeURIComponent(id)}`, {
        token: acpKey,
        body: {},
        headers: { 'API-Version': ACP_VERSION, 'Idempotency-Key': 'k'.repeat(255) },
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ type: 'invalid_request', code: 'not_found', message: expect.any(String) });
    }
  });

  it('names its configured base URL in absolute URLs, never the Host header a client sends', async () => {
    const f = await p.fixture();
    for (const host of ['evil.example.com', 'evil.example.com:443', '127.0.0.1:1']) {
      const get = (target: string) => raw(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      const discovery = json(await get(`/acp/${f.appId}/.well-known/acp.json`));
      expect(discovery.api_base_url).toBe(`${p.baseUrl}/acp/${f.appId}`);
      for (const card of ['agent.json', 'agent-card.json']) {
        const text = (await get(`/acp/${f.appId}/.well-known/${card}`)).body.toString('utf8');
        expect(text, card).toContain(p.baseUrl);
        expect(text, card).not.toContain(host);
      }
      const feed = (await get('/api/v1/release-notes/feed')).body.toString('utf8');
      expect(feed).toContain(`${p.baseUrl}/api/v1/release-notes/feed`);
      expect(feed).not.toContain(host);
    }
  });
});
