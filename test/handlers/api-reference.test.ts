/**
 * The API reference over HTTP against the local platform: `GET /api/v1/openapi.json` serves the
 * generated document, and `/docs` renders it with Swagger UI from node_modules (no CDN), checked in a
 * real headless Chromium that must find every public route on the page, with no request leaving the
 * platform's origin.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import puppeteer, { type Browser } from 'puppeteer-core';
import { buildAdminOpenApiDocument } from '../../functions/openapi/admin-document';
import { PUBLIC_ROUTES, buildOpenApiDocument } from '../../functions/openapi/document';
import { buildConsoleOpenApiDocument } from '../../functions/openapi/console-document';
import { chromiumPath } from '../support/chromium';
import { startTestPlatform, type TestPlatform } from '../support/platform';

describe('API reference', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform();
  });
  afterAll(() => p.stop());

  it('serves the generated OpenAPI document at /api/v1/openapi.json', async () => {
    const res = await p.call('GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toEqual(buildOpenApiDocument());
  });

  it('serves the console backend’s own document at /console/openapi.json, and the public one lists none of its routes', async () => {
    const res = await p.call('GET', '/console/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(buildConsoleOpenApiDocument());
    expect(Object.keys(res.body.paths).every((path) => path.startsWith('/console/'))).toBe(true);
    expect(Object.keys(buildOpenApiDocument().paths as object).some((path) => path.startsWith('/console/'))).toBe(false);
  });

  it('serves /docs and its assets from the platform itself, with a same-origin CSP', async () => {
    const page = await p.call('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.text).not.toMatch(/https?:\/\//);
    for (const asset of ['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/docs/init.js']) {
      const res = await fetch(p.baseUrl + asset);
      expect(res.status, asset).toBe(200);
      expect((await res.arrayBuffer()).byteLength, asset).toBeGreaterThan(0);
    }
  });

  it('npm run openapi writes the same documents to files (the admin one beside the public one)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    const out = join(dir, 'openapi.json');
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'functions/cli/openapi.ts', '--out', out, '--server-url', 'https://api.example.com'], {
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(out);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(buildOpenApiDocument('https://api.example.com'));
    expect(JSON.parse(readFileSync(join(dir, 'admin-openapi.json'), 'utf8'))).toEqual(buildAdminOpenApiDocument('https://api.example.com'));
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds the reference outside the test runner too (plain Node ESM, as npm start and cdk synth load it)', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '-e', "import('./functions/openapi/docs-site.ts').then((m) => console.log(Object.keys(m.docsFiles()).length))"],
      { encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('6');
  });

  const executablePath = chromiumPath();
  it.skipIf(!executablePath)('renders every public route in a headless browser, loading nothing from elsewhere', { timeout: 60_000 }, async () => {
    let browser: Browser | undefined;
    try {
      browser = await puppeteer.launch({ executablePath: executablePath!, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
      const page = await browser.newPage();
      const foreign: string[] = [];
      const errors: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith(p.baseUrl) && !r.url().startsWith('data:')) foreign.push(r.url());
      });
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${p.baseUrl}/docs`, { waitUntil: 'networkidle0' });
      await page.waitForSelector('.opblock', { timeout: 30_000 });
      const shown = await page.$$eval('.opblock', (blocks) =>
        blocks.map(
          (b) => `${b.querySelector('.opblock-summary-method')?.textContent?.trim()} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
        ),
      );
      expect(shown.sort()).toEqual(PUBLIC_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
      expect(foreign).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await browser?.close();
    }
  });
});
