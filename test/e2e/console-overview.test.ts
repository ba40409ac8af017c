/**
 * The web console in a real browser (Debian's Chromium driven by playwright-core) against the local
 * platform with its embedded OpenID provider and seeded demo org: signing in through the provider's
 * real redirects as the owner and as the viewer, the overview (its usage chart by day, app or model, the
 * keys that expire soon, the latest audit records), the plan and audit log refused to the viewer, signing
 * out, and axe on the sign-in page and the overview. Every page is guarded (guarded-page.ts).
 */
import { copyFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { userKeyOf } from '../../functions/tenancy/domain/members';
import { secondApp, turn } from '../support/chat';
import { CHROMIUM, type ConsoleBrowser, SCREENSHOTS, useConsoleBrowser } from '../support/console-browser';

/** The README's picture of the console: written by this tier when README_SCREENSHOT=1. */
const README_SCREENSHOT = 'docs/console-overview.png';

describe.skipIf(!CHROMIUM)('the web console in Chromium', () => {
  let b: ConsoleBrowser;
  // Usage is counted once it is older than the visibility delay: none here, so a turn shows at once.
  useConsoleBrowser(
    (x) => {
      b = x;
    },
    { visibilityDelayMs: 0 },
  );
  const user = (role: 'owner' | 'viewer' | 'developer') => b.user(role);
  const consoleUrl = () => `${b.platform.baseUrl}/console/`;
  const openConsole = () => b.open();

  /** Signs in through the provider's pages on a fresh page (not the kept browser state). */
  async function signInAs(role: 'owner' | 'viewer' | 'developer') {
    const page = await openConsole();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await b.signIn(page, user(role).email, user(role).password);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    return page;
  }

  it('shows the sign-in page to someone not signed in, with no accessibility violation', async () => {
    const page = await openConsole();
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/console/auth/login?return=/console/');
    expect(await b.axe(page)).toEqual([]);
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
    expect(await b.axe(page)).toEqual([]);
    await b.screenshot(page, 'console-overview-owner');
  });

  it('charts usage by day, app or model, lists the keys that expire within 14 days and the latest audit records', async () => {
    const expiresAt = new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString();
    const key = await b.platform.admin('POST', `/orgs/${b.platform.demo!.orgId}/keys`, { scopes: ['usage:read'], name: 'nightly sync', expiresAt });
    expect(key.status, key.text).toBe(201);
    const p = b.platform;
    const demoApp = { chatKey: p.demo!.chatKey, appNameId: p.demo!.appNameId };
    const shop = await secondApp(p, p.demo!.orgId, 'Shop assistant');
    for (const [w, n] of [
      [demoApp, 3],
      [shop, 5],
    ] as const)
      for (let i = 0; i < n; i++) await turn(p, w, `Question ${i} for the overview`);
    expect((await p.admin('POST', '/jobs/usage-rollup/runs')).status).toBe(200);
    const page = await b.openAs('owner');
    await page.getByRole('img', { name: /^Calls per day/ }).waitFor();
    await page.getByRole('radio', { name: 'App' }).check();
    await page
      .getByRole('table', { name: /^Usage per app/ })
      .getByRole('rowheader', { name: 'Shop assistant' })
      .waitFor();
    await page.getByRole('img', { name: /^Calls per app/ }).waitFor();
    await page.setViewportSize({ width: 1280, height: 1180 });
    await page.screenshot({ path: `${SCREENSHOTS}/console-overview-by-app.png` });
    if (process.env.README_SCREENSHOT === '1') copyFileSync(`${SCREENSHOTS}/console-overview-by-app.png`, README_SCREENSHOT);
    await page.getByRole('radio', { name: 'Model' }).check();
    await page.getByRole('table', { name: /^Usage per model/ }).waitFor();
    await page.getByLabel('Chart shows').selectOption({ label: 'Cost (USD)' });
    await page.getByRole('img', { name: /^Cost \(USD\) per model/ }).waitFor();
    const expiring = page.getByRole('table', { name: 'Keys that expire within 14 days, soonest first' });
    await expiring.getByRole('rowheader', { name: /nightly sync/ }).waitFor();
    const activity = page.getByRole('table', { name: 'Latest changes in the audit log, newest first' });
    expect(await activity.getByRole('row').count()).toBeGreaterThanOrEqual(2);
    expect(await b.axe(page)).toEqual([]);
    await b.screenshot(page, 'console-overview-sections');
  });

  it('tells the viewer their role cannot see the plan, and moves between pages by keyboard', async () => {
    const page = await signInAs('viewer');
    await page.getByRole('banner').getByText('Demo Org').waitFor();
    await page.getByText('Your role (viewer) cannot see the plan and credits').waitFor();
    await page.getByText('Your role (viewer) cannot see the audit log; owners and admins can.').waitFor();
    await page.getByRole('table', { name: /Usage per day/ }).waitFor();
    await page.getByRole('link', { name: 'Members' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/members');
    expect(await page.title()).toBe('Members - Demo Org - Application Platform');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    const elsewhere = page.getByRole('list', { name: 'Elsewhere' });
    expect(await elsewhere.getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe('/docs');
    await elsewhere.getByRole('link', { name: 'Release notes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Platform release notes' }).waitFor();
  });

  it('switches between the orgs of someone who is a member of several', async () => {
    const developer = user('developer');
    const second = await b.platform.admin('POST', '/orgs', { name: 'Second Org', plan: 'free' });
    const secondId = second.body.data.id as string;
    const userKey = userKeyOf({ issuer: b.platform.consoleSignIn!.settings.issuer.issuer, subject: developer.subject });
    await b.platform.deps.members.put({ orgId: secondId, userKey, email: developer.email, role: 'admin', joinedAtUs: 1 });
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
