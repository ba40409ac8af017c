/**
 * The web console in a real browser (Debian's Chromium driven by playwright-core) against the local
 * platform with its embedded OpenID provider and seeded demo org: signing in through the provider's
 * real redirects as the owner and as the viewer, the overview, the plan refused to the viewer, signing
 * out, and axe on the sign-in page and the overview. Every page is guarded (guarded-page.ts).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, chromium, type Page } from 'playwright-core';
import { chromiumPath } from '../support/chromium';
import { type GuardedPage, guardedPage } from '../support/guarded-page';
import { userKeyOf } from '../../functions/tenancy/domain/members';
import { type TestPlatform, usePlatform } from '../support/platform';

const CHROMIUM = chromiumPath();
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SCREENSHOTS = 'test-results';

/** axe's violations on the page as it is, as `rule: target` lines; the page's CSP stays on (evaluate is not a page script). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const options = JSON.stringify({ runOnly: { type: 'tag', values: AXE_TAGS } });
  return page.evaluate<string[]>(
    `axe.run(document, ${options}).then((r) => r.violations.flatMap((v) => v.nodes.map((n) => v.id + ': ' + JSON.stringify(n.target))))`,
  );
}

describe.skipIf(!CHROMIUM)('the web console in Chromium', () => {
  let p: TestPlatform;
  let browser: Browser;
  let guarded: GuardedPage | undefined;
  usePlatform({ consoleSignIn: { kind: 'embedded', port: 0 }, seed: true }, (x) => {
    p = x;
  });

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM!, args: FLAGS });
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    const problems = guarded?.problems ?? [];
    await guarded?.page.context().close();
    guarded = undefined;
    expect(problems).toEqual([]);
  });

  const user = (role: string) => p.consoleSignIn!.users.find((u) => u.role === role)!;
  const consoleUrl = () => `${p.baseUrl}/console/`;

  async function openConsole(): Promise<Page> {
    const context = await browser.newContext();
    guarded = await guardedPage(context, [new URL(p.baseUrl).origin, new URL(p.consoleSignIn!.settings.issuer.issuer).origin]);
    await guarded.page.goto(consoleUrl());
    return guarded.page;
  }

  async function signInAs(role: string): Promise<Page> {
    const page = await openConsole();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('E-mail').fill(user(role).email);
    await page.getByLabel('Password').fill(user(role).password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    return page;
  }

  it('shows the sign-in page to someone not signed in, with no accessibility violation', async () => {
    const page = await openConsole();
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/console/auth/login?return=/console/');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('signs the owner in through the provider: the demo org, its plan and credits, the last 30 days of usage', async () => {
    const page = await signInAs('owner');
    const banner = page.getByRole('banner');
    await banner.getByText('Demo Org').waitFor();
    await banner.getByText(user('owner').email).waitFor();
    const nav = page.getByRole('navigation', { name: 'Console' });
    for (const name of ['Overview', 'Apps', 'Keys', 'Sessions', 'Usage', 'Catalog', 'Exports', 'Members', 'Audit log'])
      await nav.getByRole('link', { name }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Plan and credits' }).waitFor();
    await page
      .getByRole('definition')
      .filter({ hasText: /^paid$/ })
      .waitFor();
    await page.getByRole('table', { name: /Usage per day/ }).waitFor();
    expect(
      await page
        .getByRole('table', { name: /Usage per day/ })
        .getByRole('row')
        .count(),
    ).toBeGreaterThanOrEqual(31);
    expect(await axeViolations(page)).toEqual([]);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: `${SCREENSHOTS}/console-overview-owner.png`, fullPage: true });
  });

  it('tells the viewer their role cannot see the plan, and moves between pages by keyboard', async () => {
    const page = await signInAs('viewer');
    await page.getByRole('banner').getByText('Demo Org').waitFor();
    await page.getByText('Your role (viewer) cannot see the plan and credits').waitFor();
    await page.getByRole('table', { name: /Usage per day/ }).waitFor();
    await page.getByRole('link', { name: 'Members' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/members');
    expect(await page.title()).toBe('Members - Demo Org - Application Platform');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
  });

  it('switches between the orgs of someone who is a member of several', async () => {
    const developer = user('developer');
    const second = await p.admin('POST', '/orgs', { name: 'Second Org', plan: 'free' });
    const secondId = second.body.data.id as string;
    const userKey = userKeyOf({ issuer: p.consoleSignIn!.settings.issuer.issuer, subject: developer.subject });
    await p.deps.members.put({ orgId: secondId, userKey, email: developer.email, role: 'admin', joinedAtUs: 1 });
    const page = await signInAs('developer');
    const switcher = page.getByRole('combobox', { name: 'Organisation' });
    await switcher.selectOption({ label: 'Demo Org' });
    await page.getByText('Your role (developer) cannot see the plan and credits').waitFor();
    await switcher.selectOption({ label: 'Second Org' });
    await page.getByText('(your role: admin)').waitFor();
    await page
      .getByRole('definition')
      .filter({ hasText: /^free$/ })
      .waitFor();
  });

  it('signs out: the session ends at the console and at the provider, then the sign-in page', async () => {
    const page = await signInAs('owner');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: /sign me out/i }).click();
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
    expect(page.url()).toBe(consoleUrl());
  });
});
