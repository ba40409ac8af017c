import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/platform';

/** The local front door's own answers, for requests no route handles. */
describe('local HTTP server', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform();
  });
  afterAll(() => p.stop());

  it('answers an unknown path with a 404 JSON error', async () => {
    for (const path of ['/', '/api/v1/org', '/api/v1/org/apps/extra', '/api/v2/org/apps', '/admin/v1/nothing', '/API/V1/ORG/APPS']) {
      const res = await p.call('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    }
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

  it('answers a known path with a wrong method with a 405 JSON error and an Allow header', async () => {
    const res = await p.call('POST', '/api/v1/org/apps', { body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({ error: { code: 'method_not_allowed', message: expect.any(String) } });

    const apps = await p.call('PUT', '/admin/v1/apps/some-id', { token: p.adminToken, body: {} });
    expect(apps.status).toBe(405);
    expect(apps.headers.get('allow')?.split(', ').sort()).toEqual(['DELETE', 'GET', 'PATCH']);
    expect(apps.body.error.code).toBe('method_not_allowed');
  });

  it('answers a malformed percent-escape in a path parameter with a 400 JSON error, not a 500', async () => {
    const res = await p.call('GET', '/admin/v1/orgs/%ZZ', { token: p.adminToken });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
  });
});
