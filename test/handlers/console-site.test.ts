/**
 * The web console's files on the local server: index.html for /console/ and its page paths, hashed
 * assets with a year-long cache, the strict CSP, and the console's API paths left to the routes.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSOLE_BUILD_DIR } from '../../functions/local/console-build';
import { CONSOLE_CSP } from '../../functions/local/console-site';
import { type TestPlatform, usePlatform } from '../support/platform';

describe('the web console on the local server', () => {
  let p: TestPlatform;
  usePlatform({ consoleSignIn: { kind: 'embedded', port: 0 }, seed: true }, (x) => {
    p = x;
  });
  const get = (path: string, method = 'GET') => fetch(`${p.baseUrl}${path}`, { method, redirect: 'manual' });

  it.each(['/console', '/console/', '/console/members', '/console/apps/app_123?tab=keys', '/console/auth-help'])(
    'GET %s: index.html, no-cache, the strict CSP',
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.text()).toContain('<div id="app"></div>');
    },
  );

  it('serves the hashed assets for a year, and a missing asset is a 404 (not the page)', async () => {
    const scripts = readdirSync(join(CONSOLE_BUILD_DIR, 'assets')).filter((f) => f.endsWith('.js'));
    const res = await get(`/console/assets/${scripts[0]}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const missing = await get('/console/assets/index-missing.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).not.toContain('text/html');
    expect((await get('/console/assets/..%2F.source-digest')).status).toBe(404);
  });

  it('HEAD answers the headers only', async () => {
    const res = await get('/console/', 'HEAD');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('leaves the console API to its routes: sign-in, /console/v1, the OpenAPI document, other methods', async () => {
    expect((await p.call('GET', '/console/auth/session')).status).toBe(401);
    expect((await get('/console/auth/login')).status).toBe(302);
    const doc = await get('/console/openapi.json');
    expect(doc.headers.get('content-type')).toContain('application/json');
    for (const res of [await get('/console/v1/orgs/org_x/plan'), await get('/console/v1'), await get('/console/', 'POST')]) {
      expect(res.headers.get('content-type') ?? '').not.toContain('text/html');
    }
  });

  it('serves the page only at clean paths: an empty, dot or encoded segment is the router’s to answer', async () => {
    for (const path of ['/console/members', '/console/apps/123/', '/console'])
      expect((await get(path)).headers.get('content-type'), path).toContain('text/html');
    for (const path of ['/console//v1/orgs/x/usage', '/console/apps/%41', '/console/a b', '/console/apps/x.y']) {
      const res = await fetch(p.baseUrl + path);
      expect(res.headers.get('content-type') ?? '', path).not.toContain('text/html');
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
    }
  });
});
