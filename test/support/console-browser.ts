/**
 * The browser tier's one setup: the local platform with its embedded OpenID provider and seeded demo
 * org, one Chromium per test file, a guarded page per test (console errors, other origins and 5xx fail
 * the test in `afterEach`), signing in through the provider's real redirects once per role (the
 * browser state is kept and reused), and axe on the page as it is (WCAG 2.2 A and AA).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { PlatformOptions } from '../../functions/local/local-platform';
import { CHROMIUM_FLAGS, chromiumPath } from './chromium';
import { type GuardedPage, guardedPage } from './guarded-page';
import { type TestPlatform, usePlatform } from './platform';

export const CHROMIUM = chromiumPath();
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
export const SCREENSHOTS = 'test-results';

export type Role = 'owner' | 'admin' | 'developer' | 'viewer';

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

export interface ConsoleBrowser {
  readonly platform: TestPlatform;
  readonly browser: Browser;
  /** The seeded person with `role` in the demo org: e-mail, password, subject. */
  user(role: Role): { readonly email: string; readonly password: string; readonly subject: string };
  /** A guarded page at `/console/<path>`, not signed in. */
  open(path?: string, allowedOrigins?: readonly string[]): Promise<Page>;
  /** A guarded page signed in as `role` (through the provider's redirects the first time), at `/console/<path>`. */
  openAs(role: Role, path?: string, allowedOrigins?: readonly string[]): Promise<Page>;
  /** Signs in on a page showing the provider's login form (after a click on "Sign in"). */
  signIn(page: Page, email: string, password: string): Promise<void>;
  /**
   * Lets `page` get `status` from `path` without failing the test: a refusal the test provokes on
   * purpose, which the page shows as advice but Chromium logs as a console error.
   */
  expectRefusal(page: Page, path: string, status: number): void;
  /** axe's violations as `rule: target` lines (the page's CSP stays on: evaluate is not a page script). */
  axe(page: Page): Promise<string[]>;
  /** A full-page screenshot into test-results/ (gitignored), to look at. */
  screenshot(page: Page, name: string): Promise<void>;
}

/** Starts the platform and Chromium for the enclosing describe; `bind` receives the handle. */
export function useConsoleBrowser(bind: (b: ConsoleBrowser) => void, opts: Partial<PlatformOptions> = {}): void {
  let p: TestPlatform;
  let browser: Browser;
  const guarded: GuardedPage[] = [];
  const states = new Map<Role, StorageState>();
  usePlatform({ consoleSignIn: { kind: 'embedded', port: 0 }, seed: true, ...opts }, (x) => {
    p = x;
  });
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM!, args: CHROMIUM_FLAGS });
    bind(handle);
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    const problems = guarded.flatMap((g) => g.problems);
    await Promise.all(guarded.splice(0).map((g) => g.page.context().close()));
    expect(problems).toEqual([]);
  });

  const origins = () => [new URL(p.baseUrl).origin, new URL(p.consoleSignIn!.settings.issuer.issuer).origin];
  const user = (role: Role) => {
    const found = p.consoleSignIn!.users.find((u) => u.role === role);
    if (!found) throw new Error(`no seeded console user with role ${role}`);
    return found;
  };
  const newPage = async (state: StorageState | undefined, path: string, allowed: readonly string[]) => {
    const context = await browser.newContext({ storageState: state, permissions: ['clipboard-read', 'clipboard-write'] });
    const g = await guardedPage(context, [...origins(), ...allowed]);
    guarded.push(g);
    await g.page.goto(`${p.baseUrl}/console/${path}`);
    return g.page;
  };
  const signIn = async (page: Page, email: string, password: string) => {
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('banner').getByText(email).waitFor();
  };
  const handle: ConsoleBrowser = {
    get platform() {
      return p;
    },
    get browser() {
      return browser;
    },
    user,
    open: (path = '', allowed = []) => newPage(undefined, path, allowed),
    async openAs(role, path = '', allowed = []) {
      if (!states.has(role)) {
        const page = await newPage(undefined, '', []);
        await page.getByRole('link', { name: 'Sign in' }).click();
        await signIn(page, user(role).email, user(role).password);
        states.set(role, await page.context().storageState());
      }
      const page = await newPage(states.get(role), path, allowed);
      await page.getByRole('banner').getByText(user(role).email).waitFor();
      return page;
    },
    signIn,
    expectRefusal(page, path, status) {
      const g = guarded.find((x) => x.page === page);
      if (!g) throw new Error('expectRefusal: not a guarded page of this test');
      g.expectedRefusals.push({ path, status });
    },
    async axe(page) {
      await page.evaluate(AXE_SOURCE);
      const options = JSON.stringify({ runOnly: { type: 'tag', values: AXE_TAGS } });
      return page.evaluate<string[]>(
        `axe.run(document, ${options}).then((r) => r.violations.flatMap((v) => v.nodes.map((n) => v.id + ': ' + JSON.stringify(n.target))))`,
      );
    },
    async screenshot(page, name) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
    },
  };
}
