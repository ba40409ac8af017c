/**
 * The console's Apps and Keys pages in Chromium against the local platform and the seeded demo org:
 * the owner makes an app and changes its settings, makes a chat key (copied from the show-once dialog)
 * and chats with it, makes an org key and exports with it, rotates and revokes keys and deletes the app
 * through its typed confirmation; the viewer sees every change disabled with its reason, and the
 * console API refuses them too. axe runs on every page and with every dialog open.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { COMPLETIONS } from '../support/chat';
import { CHROMIUM, type ConsoleBrowser, useConsoleBrowser } from '../support/console-browser';

describe.skipIf(!CHROMIUM)('the Apps and Keys pages of the web console', () => {
  let b: ConsoleBrowser;
  useConsoleBrowser((x) => {
    b = x;
  });

  const orgIdOf = async (page: Page): Promise<string> => {
    const res = await page.request.get(`${b.platform.baseUrl}/console/auth/session`);
    return ((await res.json()) as { orgs: { orgId: string }[] }).orgs[0]!.orgId;
  };
  const newApp = async (page: Page, name: string) => {
    const res = await b.platform.admin('POST', `/orgs/${await orgIdOf(page)}/apps`, { name });
    expect(res.status, res.text).toBe(201);
    return res.body.data as { id: string; appNameId: string };
  };
  const chat = (key: string, model: string) =>
    b.platform.call('POST', COMPLETIONS, { token: key, body: { model, messages: [{ role: 'user', content: 'Hello from the console test' }] } });
  const clipboard = (page: Page) => page.evaluate<string>('navigator.clipboard.readText()');

  /** Copies the secret from the show-once dialog, then closes it through its confirmation step. */
  async function copySecretAndClose(page: Page, check?: () => Promise<void>): Promise<string> {
    const dialog = page.getByRole('dialog', { name: /copy it now/ });
    await dialog.getByRole('button', { name: 'Copy the key' }).click();
    await dialog.getByText('Copied').first().waitFor();
    const key = await clipboard(page);
    expect(await dialog.getByLabel('The key').inputValue()).toBe(key);
    await check?.();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.getByText('Close? The secret will not be shown again.').waitFor();
    await dialog.getByRole('button', { name: 'Close, I have saved it' }).click();
    await dialog.waitFor({ state: 'detached' });
    return key;
  }

  it('creates an app, saves its settings and deletes it through the typed confirmation', async () => {
    const page = await b.openAs('owner', 'apps');
    await page.getByRole('heading', { level: 2, name: 'New app' }).waitFor();
    expect(await b.axe(page)).toEqual([]);
    await page.getByLabel('App name').fill('E2E settings bot');
    await page.getByRole('button', { name: 'Create app' }).click();
    await page.getByRole('heading', { level: 2, name: 'E2E settings bot' }).waitFor();
    await page
      .getByRole('status')
      .getByText(/Created E2E settings bot: chat clients send model "e2e-settings-bot-\d+"/)
      .waitFor();
    const appId = new URL(page.url()).pathname.split('/').pop()!;

    await page.getByLabel('Monthly usage cap (USD)').fill('250');
    await page.getByLabel('Images per conversation, at most').fill('3');
    await page.getByLabel('Tax rate (%)').fill('8.25');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').getByText('Settings saved.').waitFor();
    await page.getByRole('button', { name: 'Add a connection' }).click();
    const connection = page.getByRole('group', { name: 'Connection 1' });
    await connection.getByLabel('Name').fill('crm');
    await connection.getByLabel('URL').fill('https://tools.example.com/mcp');
    await connection.getByRole('button', { name: 'Add a header to connection 1' }).click();
    await connection.getByLabel('Header 1 name').fill('Authorization');
    await connection.getByLabel('Header 1 value').fill('Bearer {{session.crm_token}}');
    await page.getByRole('button', { name: 'Save MCP connections' }).click();
    await page.getByRole('status').getByText('MCP connections saved.').waitFor();

    const stored = await b.platform.admin('GET', `/apps/${appId}`);
    expect(stored.body.data.settings).toMatchObject({
      monthlyUsageCapUsd: '250',
      imageInput: { enabled: true, maxPerConversation: 3 },
      acp: { taxRateBps: 825 },
      mcpConnections: [{ name: 'crm', url: 'https://tools.example.com/mcp', headers: { Authorization: 'Bearer {{session.crm_token}}' } }],
    });
    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'E2E settings bot' }).waitFor();
    expect(await page.getByLabel('Monthly usage cap (USD)').inputValue()).toBe('250');
    expect(await page.getByRole('group', { name: 'Connection 1' }).getByLabel('Header 1 name').inputValue()).toBe('Authorization');
    expect(await page.getByRole('group', { name: 'Connection 1' }).getByLabel('Header 1 value').inputValue()).toBe('');
    expect(await b.axe(page)).toEqual([]);
    await b.screenshot(page, 'console-app-settings');

    await page.getByRole('button', { name: 'Delete app…' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete E2E settings bot?' });
    await confirm.getByText(/one tombstone with cause app_deleted for each session/).waitFor();
    expect(await b.axe(page)).toEqual([]);
    expect(await confirm.getByRole('button', { name: 'Delete app' }).isDisabled()).toBe(true);
    await confirm.getByLabel(/Type .* to confirm/).fill('E2E settings bot');
    await confirm.getByRole('button', { name: 'Delete app' }).click();
    await page
      .getByRole('status')
      .getByText(/Deleted E2E settings bot/)
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/apps');
    await page.getByRole('table', { name: /Apps of Demo Org/ }).waitFor();
    expect(await page.getByRole('link', { name: 'E2E settings bot' }).count()).toBe(0);
    expect(await b.axe(page)).toEqual([]);
    await b.screenshot(page, 'console-apps-list');
    expect((await b.platform.admin('GET', `/apps/${appId}`)).status).toBe(404);
  });

  it('makes a chat key shown once and chats with it, an org key that exports, then rotates and revokes', async () => {
    const page = await b.openAs('owner', 'keys');
    const app = await newApp(page, 'E2E chat app');
    await page.getByRole('table', { name: /Keys of Demo Org/ }).waitFor();
    expect(await b.axe(page)).toEqual([]);

    await page.getByRole('button', { name: 'Create a key…' }).click();
    const create = page.getByRole('dialog', { name: 'Create a key' });
    await create.getByLabel(/Chat key/).check();
    await create.getByLabel('App', { exact: true }).selectOption({ label: `E2E chat app (${app.appNameId})` });
    await create.getByLabel('Name').fill('e2e site');
    expect(await b.axe(page)).toEqual([]);
    await b.screenshot(page, 'console-key-create');
    await create.getByRole('button', { name: 'Create key' }).click();
    const chatKey = await copySecretAndClose(page, async () => {
      const dialog = page.getByRole('dialog', { name: /Chat key .*copy it now/ });
      await dialog.getByText(`baseURL: '${b.platform.baseUrl}/api/v1'`, { exact: false }).waitFor();
      await dialog.getByText(`model: '${app.appNameId}'`, { exact: false }).waitFor();
      expect(await b.axe(page)).toEqual([]);
      await b.screenshot(page, 'console-key-show-once');
      await page.keyboard.press('Escape');
      await dialog.getByText('Close? The secret will not be shown again.').waitFor();
      expect(await b.axe(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Back to the secret' }).click();
      await dialog.getByLabel('The key').waitFor();
    });
    expect(chatKey).toMatch(/^svc_chat_/);
    const turn = await chat(chatKey, app.appNameId);
    expect(turn.status, turn.text).toBe(200);

    await page.getByRole('button', { name: 'Create a key…' }).click();
    await create.getByLabel(/Org key/).check();
    await create.getByLabel(/apps:read/).check();
    await create.getByLabel(/usage:read/).check();
    await create.getByLabel('Name').fill('warehouse');
    await create.getByLabel('Expires').selectOption({ label: 'In 30 days' });
    await create.getByRole('button', { name: 'Create key' }).click();
    const orgKey = await copySecretAndClose(page);
    expect(orgKey).toMatch(/^svc_org_/);
    const exported = await b.platform.call('GET', '/api/v1/org/apps', { token: orgKey });
    expect(exported.status, exported.text).toBe(200);
    expect(exported.body.data.map((a: { id: string }) => a.id)).toContain(app.id);
    const warehouseRow = page.getByRole('row', { name: /warehouse/ });
    await warehouseRow.getByText('usage:read').waitFor();

    const lastDay = new Date(Date.now() + 45 * 86_400_000).toISOString().slice(0, 10);
    await page.getByRole('button', { name: 'Create a key…' }).click();
    await create.getByLabel(/ACP key/).check();
    await create.getByLabel('Name').fill('agent checkout');
    await create.getByLabel('Expires').selectOption({ label: 'On a day I pick' });
    await create.getByLabel('Last day it works').fill(lastDay);
    await create.getByRole('button', { name: 'Create key' }).click();
    const acpKey = await copySecretAndClose(page, async () => {
      await page
        .getByRole('dialog', { name: /copy it now/ })
        .getByText(`${b.platform.baseUrl}/acp/${app.id}/checkout_sessions`, { exact: false })
        .waitFor();
    });
    expect(acpKey).toMatch(/^acp_/);
    await page.getByLabel('Show').selectOption({ label: 'ACP keys' });
    await page
      .getByRole('row', { name: /agent checkout/ })
      .getByText(`${lastDay} 23:59`)
      .waitFor();
    await expect.poll(() => page.getByRole('row', { name: /warehouse/ }).count()).toBe(0);
    await page.getByLabel('Show').selectOption({ label: 'Every kind' });

    await page
      .getByRole('row', { name: /e2e site/ })
      .getByRole('button', { name: /^Rotate/ })
      .click();
    await page
      .getByRole('dialog', { name: /^Rotate chat key/ })
      .getByRole('button', { name: 'Rotate key' })
      .click();
    const rotated = await copySecretAndClose(page, async () => {
      await page
        .getByRole('dialog', { name: /copy it now/ })
        .getByText(/keeps working until .* \(the grace period\)/)
        .waitFor();
    });
    expect(rotated).not.toBe(chatKey);
    expect((await chat(rotated, app.appNameId)).status).toBe(200);
    expect((await chat(chatKey, app.appNameId)).status).toBe(200);

    await warehouseRow.getByRole('button', { name: /^Revoke/ }).click();
    const revoke = page.getByRole('dialog', { name: /^Revoke org key/ });
    expect(await b.axe(page)).toEqual([]);
    await revoke.getByRole('button', { name: 'Revoke key' }).click();
    await page
      .getByRole('status')
      .getByText(/Revoked .*: it is refused from now on/)
      .waitFor();
    await warehouseRow.getByText('Revoked', { exact: true }).waitFor();
    expect((await b.platform.call('GET', '/api/v1/org/apps', { token: orgKey })).status).toBe(401);
  });

  it('shows the viewer every change disabled with its reason, and the console API refuses them', async () => {
    const page = await b.openAs('viewer', 'apps');
    const orgId = await orgIdOf(page);
    const app = await newApp(page, 'E2E viewer app');
    const key = await b.platform.admin('POST', `/orgs/${orgId}/keys`, { scopes: ['apps:read'], name: 'viewer can see' });
    expect(key.status, key.text).toBe(201);
    await page.reload();

    const create = page.getByRole('button', { name: 'Create app' });
    expect(await create.isDisabled()).toBe(true);
    expect(await create.getAttribute('aria-describedby')).toBeTruthy();
    await page.getByText(/Only owners, admins and developers create, change and delete apps \(your role: viewer\)/).waitFor();
    await page.getByRole('link', { name: 'E2E viewer app' }).click();
    await page.getByRole('heading', { level: 2, name: 'E2E viewer app' }).waitFor();
    await page.getByText(/The settings are shown read-only/).waitFor();
    expect(await page.getByLabel('Model').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save settings' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Delete app…' }).isDisabled()).toBe(true);
    expect(await b.axe(page)).toEqual([]);

    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Keys' }).click();
    await page.getByRole('table', { name: /Keys of Demo Org/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Create a key…' }).isDisabled()).toBe(true);
    const row = page.getByRole('row', { name: /viewer can see/ });
    const revoke = row.getByRole('button', { name: /^Revoke/ });
    expect(await revoke.isDisabled()).toBe(true);
    const reasonId = await revoke.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${reasonId}"]`).textContent()).toBe(
      'Rotate and Revoke are off for your role (viewer): Only owners, admins and developers create, rotate and revoke keys.',
    );
    expect(await b.axe(page)).toEqual([]);
    await b.screenshot(page, 'console-keys-viewer');

    const headers = { 'X-Console-Request': '1', Origin: new URL(b.platform.baseUrl).origin };
    const refused = await page.request.post(`${b.platform.baseUrl}/console/v1/orgs/${orgId}/keys`, { headers, data: { scopes: ['apps:read'] } });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe('Your role (viewer) may not do this: keys.manage');
    const refusedDelete = await page.request.delete(`${b.platform.baseUrl}/console/v1/orgs/${orgId}/apps/${app.id}`, { headers });
    expect(refusedDelete.status()).toBe(403);
    expect((await b.platform.admin('GET', `/apps/${app.id}`)).status).toBe(200);
  });
});
