/**
 * The console's first useful paint in Chromium on loopback against the local platform: the Overview
 * until its "Usage per day" table shows, and the Sessions page of an org with 1,000 sessions until the
 * first row of its sessions table shows (or, while the page has no table yet, until its `h1`; the output
 * says which). Each beside a static HTML page of the same byte size as what the console's page loads
 * (index.html, its scripts and its stylesheet), served by the same server from the console's build
 * folder. Signed in once as the demo org's owner; every run is a fresh browser context (empty cache).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { sessionItem } from '../functions/conversations/adapters/dynamo-session-items';
import { CONSOLE_BUILD_DIR, ensureConsoleBuilt } from '../functions/local/console-build';
import { startPlatform } from '../functions/local/local-platform';
import { CHROMIUM_FLAGS, chromiumPath } from '../test/support/chromium';
import { sessionsFor } from './org-sessions.bench';
import { seed, tableOf } from './seed';
import { percentile, table } from './stats';

const RUNS = Number(process.env.BENCH_CONSOLE_RUNS ?? 15);
const SESSIONS = 1_000;

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;
/** What counts as useful on a page, checked in the page after every DOM change. */
type Marker = 'usage-table' | 'sessions-row' | 'sessions-h1' | 'static';

/**
 * Runs in the page before its own scripts (a DevTools init script, outside the page's CSP): records
 * `performance.now()` in the animation frame after the marker first shows, so the time is the page's own
 * from navigation start, with no round trip to the bench in it. (A string: the bench has no DOM types.)
 */
const watchFor = (marker: Marker): string => `(() => {
  const marker = ${JSON.stringify(marker)};
  const caption = (prefix) => {
    const c = [...document.querySelectorAll('table > caption')].find((e) => (e.textContent || '').trim().startsWith(prefix));
    return c ? c.parentElement : undefined;
  };
  const shows = (e) => !!e && e.getClientRects().length > 0;
  const found = () => {
    if (marker === 'usage-table') return shows(caption('Usage per day'));
    if (marker === 'sessions-row') { const t = caption('Sessions'); return shows(t && t.tBodies[0] && t.tBodies[0].rows[0]); }
    if (marker === 'sessions-h1') { const h = document.querySelector('h1'); return !!h && h.textContent.trim() === 'Sessions'; }
    return shows(caption('Static'));
  };
  const observer = new MutationObserver(() => {
    if (window.__usefulPaint !== undefined || !found()) return;
    observer.disconnect();
    requestAnimationFrame(() => { window.__usefulPaint = performance.now(); });
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
})();`;

/** Milliseconds from navigation start to the first useful paint, in a fresh context; and the same-origin bytes the page loaded. */
async function firstUsefulPaint(browser: Browser, url: string, marker: Marker, state?: StorageState, timeout = 30_000): Promise<{ ms: number; bytes: number }> {
  const context = await browser.newContext(state ? { storageState: state } : {});
  try {
    const page = await context.newPage();
    const origin = new URL(url).origin;
    const sizes: Promise<number>[] = [];
    page.on('response', (res) => {
      const type = res.request().resourceType();
      if (res.url().startsWith(origin) && ['document', 'script', 'stylesheet'].includes(type))
        sizes.push(
          res.body().then(
            (b) => b.length,
            () => 0,
          ),
        );
    });
    await page.addInitScript(watchFor(marker));
    await page.goto(url);
    // A function, not a string: the page's CSP forbids eval, which the string form would need.
    const ms = await page.waitForFunction(() => (globalThis as { __usefulPaint?: number }).__usefulPaint, undefined, { timeout });
    return { ms: (await ms.jsonValue()) as number, bytes: (await Promise.all(sizes)).reduce((a, b) => a + b, 0) };
  } finally {
    await context.close();
  }
}

/** A plain page of `bytes` bytes whose useful part (a captioned table) comes first, as a server-rendered page's would. */
function staticPage(bytes: number): string {
  const head = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Static</title></head><body><main><h1>Static</h1>';
  const useful = '<table><caption>Static table</caption><tbody><tr><td>1</td></tr></tbody></table><p>';
  const tail = '</p></main></body></html>\n';
  const filler = Math.max(0, bytes - head.length - useful.length - tail.length);
  return head + useful + 'static page filler text '.repeat(Math.ceil(filler / 24)).slice(0, filler) + tail;
}

export async function benchConsole(): Promise<void> {
  const executablePath = chromiumPath();
  if (!executablePath) {
    console.log('skipped: no Chromium (apt-get install chromium, or set CHROMIUM_PATH)');
    return;
  }
  await ensureConsoleBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-bench-console-'));
  const p = await startPlatform({
    dataDir,
    persist: false,
    timers: false,
    seed: true,
    consoleSignIn: { kind: 'embedded', port: 0 },
    logger: new Logger({ logLevel: 'SILENT' }),
  });
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_FLAGS });
  const staticFile = join(CONSOLE_BUILD_DIR, 'assets', `bench-static-${process.pid}.html`);
  try {
    const demo = p.demo!;
    const t0 = performance.now();
    await seed(tableOf(p), sessionsFor(demo.orgId, demo.appId, SESSIONS, (Date.now() - 60_000) * 1000).map(sessionItem), 8);
    const seedS = (performance.now() - t0) / 1000;

    // Signed in once, through the embedded provider's real redirects; each run starts from that state.
    const owner = p.consoleSignIn!.users.find((u) => u.role === 'owner')!;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${p.baseUrl}/console/`);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('E-mail').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('banner').getByText(owner.email).waitFor();
    const state = await context.storageState();
    await context.close();

    // The Sessions page may not have its table yet: find out once, then measure what it has.
    let sessionsMarker: Marker = 'sessions-row';
    try {
      await firstUsefulPaint(browser, `${p.baseUrl}/console/sessions`, 'sessions-row', state, 10_000);
    } catch {
      sessionsMarker = 'sessions-h1';
    }
    const pages = [
      { name: 'overview', path: '/console/', marker: 'usage-table' as Marker, until: '"Usage per day" table visible' },
      {
        name: `sessions (${SESSIONS.toLocaleString('en')} in the org)`,
        path: '/console/sessions',
        marker: sessionsMarker,
        until: sessionsMarker === 'sessions-row' ? 'first row of the "Sessions…" table visible' : 'h1 "Sessions" (no sessions table on the page yet)',
      },
    ];
    const rows: Record<string, string | number>[] = [];
    for (const { name, path, marker, until } of pages) {
      const url = `${p.baseUrl}${path}`;
      const { bytes } = await firstUsefulPaint(browser, url, marker, state);
      writeFileSync(staticFile, staticPage(bytes));
      const staticUrl = `${p.baseUrl}/console/assets/bench-static-${process.pid}.html`;
      await firstUsefulPaint(browser, staticUrl, 'static');
      const consoleMs: number[] = [];
      const staticMs: number[] = [];
      // Interleaved, so a slower stretch of the machine weighs on both.
      for (let i = 0; i < RUNS; i++) {
        consoleMs.push((await firstUsefulPaint(browser, url, marker, state)).ms);
        staticMs.push((await firstUsefulPaint(browser, staticUrl, 'static')).ms);
      }
      const [c50, s50] = [percentile(consoleMs, 50), percentile(staticMs, 50)];
      rows.push({
        page: name,
        until,
        'bytes (html+js+css)': bytes,
        'console p50 ms': c50.toFixed(1),
        'console p90 ms': percentile(consoleMs, 90).toFixed(1),
        'static same-size p50 ms': s50.toFixed(1),
        ratio: `${(c50 / s50).toFixed(1)}x`,
      });
    }
    console.log(`Chromium ${browser.version()} headless on loopback, ${RUNS} runs per page (fresh context each), signed in as the owner of the demo org`);
    console.log(`${SESSIONS} sessions seeded in ${seedS.toFixed(1)} s`);
    table(rows);
    if (sessionsMarker === 'sessions-h1') console.log('note: the Sessions page has no table captioned "Sessions…" yet: timed to its h1 instead');
  } finally {
    rmSync(staticFile, { force: true });
    await browser.close();
    await p.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
