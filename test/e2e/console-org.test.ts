/**
 * The console's org pages in Chromium: the owner invites a newcomer (the link shown once) and revokes
 * a second invitation; the newcomer opens a link signed out, signs in through the provider, is told
 * what to do about the revoked and an expired invitation, then joins as developer, whose members page
 * shows every change disabled with its reason (and the server refuses it); an admin cannot touch the
 * owner, and another person's invitation says whom it is for; the owner exports the org,
 * follows it to completion and downloads a file; the audit log shows the invitation and its
 * acceptance, filtered by action. axe on every page and open dialog.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hashCredential } from '../../functions/tenancy/domain/credentials';
import { DAY_US } from '../../functions/tenancy/domain/invitations';
import { userKeyOf } from '../../functions/tenancy/domain/members';
import { CHROMIUM, type ConsoleBrowser, useConsoleBrowser } from '../support/console-browser';

describe.skipIf(!CHROMIUM)('the console’s members, invitations, exports and audit log in Chromium', () => {
  let b: ConsoleBrowser;
  useConsoleBrowser((x) => {
    b = x;
  });
  const newcomer = () => b.platform.consoleSignIn!.users.find((u) => u.email === 'newcomer@demo.local')!;
  const orgApi = (rest: string) => `${b.platform.baseUrl}/console/v1/orgs/${b.platform.demo!.orgId}/${rest}`;
  /** A console API call with the page's cookie, as the page's own script would send it. */
  const apiAs = (page: Page, method: string, rest: string, data?: unknown) =>
    page.request.fetch(orgApi(rest), { method, headers: { 'X-Console-Request': '1' }, ...(data === undefined ? {} : { data }) });
  /** The owner's member id: their user key. */
  const ownerId = () => userKeyOf({ issuer: b.platform.consoleSignIn!.settings.issuer.issuer, subject: b.user('owner').subject });
  /** An invitation of the newcomer whose week ran out (its token): no test waits a week. */
  async function expiredInvitation(): Promise<string> {
    const token = `inv_${'e'.repeat(40)}`;
    const now = b.platform.deps.clock.nowUs();
    await b.platform.deps.invitations.create({
      id: randomUUID(),
      orgId: b.platform.demo!.orgId,
      email: newcomer().email,
      role: 'admin',
      tokenHash: hashCredential(token),
      invitedBy: ownerId(),
      createdAtUs: now - 8 * DAY_US,
      expiresAtUs: now - DAY_US,
    });
    return token;
  }
  let link = '';
  let revokedLink = '';
  const tokenPath = (url: string) => `invitations${new URL(url).hash}`;

  /** Invites through the members page; the link the dialog shows once. */
  async function invite(page: Page, email: string, role: string): Promise<string> {
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Role', { exact: true }).selectOption(role);
    await page.getByRole('button', { name: 'Invite' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invitation link' });
    await dialog.waitFor();
    return (await dialog.getByText(/\/console\/invitations#token=/).textContent()) ?? '';
  }

  it('lets the owner invite a newcomer as developer: the link is shown once, then the invitation waits in the list', async () => {
    const page = await b.openAs('owner', 'members');
    const members = page.getByRole('table', { name: 'Members of Demo Org' });
    await members.getByRole('row', { name: /admin@demo\.local/ }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Role of admin@demo.local' }).isEnabled()).toBe(true);
    expect(await b.axe(page)).toEqual([]);

    link = await invite(page, newcomer().email, 'developer');
    const dialog = page.getByRole('dialog', { name: 'Invitation link' });
    expect(link).toMatch(new RegExp(`^${b.platform.baseUrl}/console/invitations#token=\\S+$`));
    await dialog.getByRole('button', { name: 'Copy the link' }).click();
    await dialog.getByText('Copied').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(link);
    expect(await b.axe(page)).toEqual([]);
    await b.screenshot(page, 'console-members-invitation-link');

    // The link is not shown again: closing asks first, inside the dialog, and Back keeps it open.
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.getByText('Close the invitation link? It is not shown again', { exact: false }).waitFor();
    expect(await b.axe(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Back to the link' }).click();
    await dialog.getByText(/\/console\/invitations#token=/).waitFor();
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Close, I have sent it' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('status').filter({ hasText: 'newcomer@demo.local was invited as developer.' }).waitFor();
    await page
      .getByRole('table', { name: 'Pending invitations' })
      .getByRole('row', { name: /newcomer@demo\.local developer/ })
      .waitFor();
    await b.screenshot(page, 'console-members-owner');

    // A second invitation, revoked: its link then says so.
    revokedLink = await invite(page, newcomer().email, 'viewer');
    await page.getByRole('dialog', { name: 'Invitation link' }).getByRole('button', { name: 'Done' }).click();
    await page.getByRole('dialog', { name: 'Invitation link' }).getByRole('button', { name: 'Close, I have sent it' }).click();
    const viewerInvitation = page.getByRole('table', { name: 'Pending invitations' }).getByRole('row', { name: /newcomer@demo\.local viewer/ });
    await viewerInvitation.getByRole('button', { name: /^Revoke/ }).click();
    const revoke = page.getByRole('dialog', { name: 'Revoke the invitation of newcomer@demo.local' });
    await revoke.waitFor();
    expect(await b.axe(page)).toEqual([]);
    await revoke.getByRole('button', { name: 'Revoke invitation' }).click();
    await page.getByRole('status').filter({ hasText: 'The invitation of newcomer@demo.local was revoked' }).waitFor();
    await viewerInvitation.waitFor({ state: 'detached' });
  });

  it('tells a signed-in person whose address the invitation does not name what to do, and lets an admin never touch the owner', async () => {
    const page = await b.openAs('admin', tokenPath(link));
    b.expectRefusal(page, '/console/v1/invitations/accept', 403);
    await page.getByRole('heading', { level: 1, name: 'Accept an invitation' }).waitFor();
    await page.getByRole('button', { name: 'Accept the invitation' }).waitFor();
    // The token leaves the address bar once kept in the tab.
    expect(new URL(page.url()).hash).toBe('');
    expect(
      await page
        .getByRole('navigation', { name: 'Console' })
        .getByRole('link', { name: /invitation/i })
        .count(),
    ).toBe(0);
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await page.getByRole('alert').filter({ hasText: 'This invitation is for another e-mail address. Sign out, then sign in with' }).waitFor();
    expect(await b.axe(page)).toEqual([]);

    await page.getByRole('link', { name: 'Members' }).click();
    const ownerRole = page.getByRole('combobox', { name: 'Role of owner@demo.local' });
    await ownerRole.waitFor();
    expect(await ownerRole.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Remove owner@demo.local' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Remove owner@demo.local' }).getAttribute('aria-describedby')).toBeTruthy();
    await page.getByText('Only an owner may change or remove an owner.').first().waitFor();
    expect(await page.getByRole('combobox', { name: 'Role of viewer@demo.local' }).isEnabled()).toBe(true);
    expect((await apiAs(page, 'DELETE', `members/${ownerId()}`)).status()).toBe(403);
    expect(await b.axe(page)).toEqual([]);
    await b.screenshot(page, 'console-members-admin');
  });

  it('lets the newcomer open a link signed out and sign in through the provider; a revoked or expired invitation says what to do, the pending one makes them developer of Demo Org', async () => {
    const expiredToken = await expiredInvitation();
    const page = await b.open(tokenPath(revokedLink));
    b.expectRefusal(page, '/console/v1/invitations/accept', 404);
    b.expectRefusal(page, '/console/v1/invitations/accept', 401);
    await page.getByRole('heading', { level: 1, name: 'Join an organisation' }).waitFor();
    expect(await b.axe(page)).toEqual([]);
    await b.screenshot(page, 'console-invitation-signed-out');
    await page.getByRole('link', { name: 'Sign in to accept' }).click();
    await b.signIn(page, newcomer().email, newcomer().password);
    await page.getByRole('heading', { level: 1, name: 'Accept an invitation' }).waitFor();
    await page.getByRole('banner').getByText('No organisation').waitFor();
    expect(await b.axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invitation not found: the link is incomplete, or the invitation was revoked.' }).waitFor();

    // Other links opened in the same tab, now signed in: one expired, then the one still pending.
    await page.goto(`${b.platform.baseUrl}/console/invitations#token=${expiredToken}`);
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await page.getByRole('alert').filter({ hasText: 'This invitation has expired: ask for a new one. The person who invited you' }).waitFor();
    await page.goto(link);
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await page.getByRole('status').filter({ hasText: 'You joined Demo Org as developer.' }).waitFor();
    await b.screenshot(page, 'console-invitation-accepted');
    await page.getByRole('button', { name: 'Open Demo Org' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.getByRole('banner').getByText('Demo Org').waitFor();

    // As developer: every member is listed, every change disabled with the reason, and refused anyway.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Members' }).click();
    await page
      .getByRole('table', { name: 'Members of Demo Org' })
      .getByRole('row', { name: /newcomer@demo\.local \(you\)/ })
      .waitFor();
    const viewerRole = page.getByRole('combobox', { name: 'Role of viewer@demo.local' });
    expect(await viewerRole.isDisabled()).toBe(true);
    const reasonId = await viewerRole.getAttribute('aria-describedby');
    // The reason is the control's description: read through the id it points at (no role names that link).
    expect(await page.locator(`[id="${reasonId}"]`).textContent()).toBe('Only owners and admins change roles and remove members (your role: developer).');
    expect(await page.getByRole('button', { name: 'Remove viewer@demo.local' }).isDisabled()).toBe(true);
    expect(await page.getByLabel('E-mail address').isDisabled()).toBe(true);
    await page.getByText('Only owners and admins invite people (your role: developer).').waitFor();
    await page.getByText('Your role (developer) cannot see invitations; an owner or admin can.').waitFor();
    expect((await apiAs(page, 'PATCH', `members/${ownerId()}`, { role: 'viewer' })).status()).toBe(403);
    expect((await apiAs(page, 'POST', 'invitations', { email: 'someone@demo.local', role: 'viewer' })).status()).toBe(403);
    expect(await b.axe(page)).toEqual([]);
    await b.screenshot(page, 'console-members-developer');

    await page.getByRole('link', { name: 'Exports' }).click();
    await page.getByText('Your role (developer) cannot see exports').waitFor();
    expect(await page.getByRole('button', { name: 'Start the export' }).isDisabled()).toBe(true);
    expect((await apiAs(page, 'POST', 'exports', {})).status()).toBe(403);
    expect(await b.axe(page)).toEqual([]);
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByText('Your role (developer) cannot read the audit log').waitFor();
    expect((await apiAs(page, 'GET', 'audit-log')).status()).toBe(403);
    expect(await b.axe(page)).toEqual([]);
  });

  it('lets the owner export the org, follow it until completed, and download a file', async () => {
    const page = await b.openAs('owner', 'exports');
    await page.getByRole('checkbox', { name: 'Tombstones (the deletion feed)' }).uncheck();
    expect(await b.axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Start the export' }).click();
    // The export's chunks run on the exports queue, whose runner the test platform starts (`queueRunners`, on by
    // default); `timers: false` stops only the scheduled jobs. The page polls until the job is completed.
    await page
      .getByRole('status')
      .filter({ hasText: /^Completed at / })
      .waitFor();
    const exportId = new URL(page.url()).pathname.split('/').pop()!;
    const files = page.getByRole('table', { name: /^Files/ });
    await files.getByRole('row', { name: /Apps/ }).waitFor();
    expect(await b.axe(page)).toEqual([]);
    await b.screenshot(page, 'console-export-completed');
    const url = (await files.getByRole('link', { name: /Download apps file/ }).getAttribute('href'))!;

    // The download links point at object storage (the local S3 emulator's own port here, S3 on AWS),
    // not the console's origin: the page that downloads must allow that origin, and only it.
    const download = await b.openAs('owner', `exports/${exportId}`, [new URL(url).origin]);
    const [file] = await Promise.all([download.waitForEvent('download'), download.getByRole('link', { name: /Download apps file/ }).click()]);
    expect(file.suggestedFilename()).toMatch(/\.gz$|apps/);
    expect(await file.failure()).toBeNull();

    await download.getByRole('link', { name: 'All exports' }).click();
    const recent = download.getByRole('table', { name: /Exports of the last 7 days/ });
    await recent.getByRole('row', { name: /Apps, Sessions with their transcripts, Usage and cost rows Completed/ }).waitFor();
    expect(await b.axe(download)).toEqual([]);
    await b.screenshot(download, 'console-exports-list');
  });

  it('shows the owner the invitation and its acceptance in the audit log, filtered by action, with the change’s details', async () => {
    const page = await b.openAs('owner', 'audit-log');
    const table = page.getByRole('table', { name: /Audit records/ });
    await table
      .getByRole('row', { name: /invitation\.create/ })
      .first()
      .waitFor();
    await table.getByRole('row', { name: /newcomer@demo\.local invitation\.accept member/ }).waitFor();
    expect(await b.axe(page)).toEqual([]);

    await page.getByLabel('Action').fill('invitation.accept');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('table', { name: 'Audit records matching the filters, newest first' }).waitFor();
    const filteredTable = page.getByRole('table', { name: /Audit records/ });
    expect(await filteredTable.getByRole('cell', { name: 'invitation.accept', exact: true }).count()).toBe(1);
    expect(await filteredTable.getByRole('cell', { name: /^invitation\.(create|revoke)$/ }).count()).toBe(0);
    await page.getByText(/^Details of invitation\.accept/).click();
    await page.getByRole('definition').getByText('"role": "developer"').waitFor();
    expect(await b.axe(page)).toEqual([]);
    await b.screenshot(page, 'console-audit-log');

    await page.getByLabel('Member').selectOption({ label: 'admin@demo.local' });
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('status').filter({ hasText: 'No record matches these filters.' }).waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await table.getByRole('row', { name: /invitation\.revoke/ }).waitFor();
  });

  it('lets the owner change a role and remove a member, each said in a status line', async () => {
    const page = await b.openAs('owner', 'members');
    const role = page.getByRole('combobox', { name: 'Role of developer@demo.local' });
    await role.selectOption('viewer');
    await page.getByRole('button', { name: 'Save role of developer@demo.local' }).click();
    await page.getByRole('status').filter({ hasText: 'developer@demo.local is now viewer.' }).waitFor();
    expect(await role.inputValue()).toBe('viewer');

    await page.getByRole('button', { name: 'Remove developer@demo.local' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove developer@demo.local' });
    await confirm.waitFor();
    expect(await confirm.getByRole('button', { name: 'Remove member' }).isDisabled()).toBe(true);
    expect(await b.axe(page)).toEqual([]);
    await confirm.getByLabel(/to confirm/).fill('developer@demo.local');
    await confirm.getByRole('button', { name: 'Remove member' }).click();
    await page.getByRole('status').filter({ hasText: 'developer@demo.local was removed from Demo Org.' }).waitFor();
    await role.waitFor({ state: 'detached' });
  });
});
