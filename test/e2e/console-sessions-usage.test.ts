/**
 * The console's sessions and usage pages in Chromium, as the owner, a developer and a viewer of the demo
 * org: a chat turn and an imported session with a consumer and an external id, found by filter, read as
 * a transcript, the consumer deleted through the typed confirmation and found in the org export's
 * tombstone feed with its cause; delete disabled for a developer and refused by the API; a viewer shown
 * no message text and refused the transcript; usage after the rollup as a chart and table, and its CSV.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createChatKey, patchSettings, secondApp, turn } from '../support/chat';
import { CHROMIUM, type ConsoleBrowser, useConsoleBrowser } from '../support/console-browser';

const USER_TEXT = 'Can you send my parcel to the new address?';
const EMAIL = 'ann.parcel@example.com';
const EXTERNAL_ID = 'crm-4711';

describe.skipIf(!CHROMIUM)('the console’s sessions and usage in Chromium', () => {
  let b: ConsoleBrowser;
  useConsoleBrowser(
    (x) => {
      b = x;
    },
    { visibilityDelayMs: 0 },
  );
  const w = { appId: '', appNameId: '', chatKey: '', orgKey: '', turnSessionId: '', importedId: '', zdrSessionId: '' };
  const orgApi = () => `${b.platform.baseUrl}/console/v1/orgs/${b.platform.demo!.orgId}`;

  beforeAll(async () => {
    const p = b.platform;
    const app = await p.admin('POST', `/orgs/${p.demo!.orgId}/apps`, { name: 'Parcel desk' });
    expect(app.status, app.text).toBe(201);
    Object.assign(w, { appId: app.body.data.id, appNameId: app.body.data.appNameId, chatKey: (await createChatKey(p, app.body.data.id)).key });
    const orgKey = await p.admin('POST', `/orgs/${p.demo!.orgId}/keys`, { scopes: ['tombstones:read'], name: 'warehouse' });
    expect(orgKey.status, orgKey.text).toBe(201);
    w.orgKey = orgKey.body.data.key;
    w.turnSessionId = (await turn(p, w, 'Hello from a chat turn')).chatSessionId;
    // A chat turn names no consumer or external id: the admin import brings a session with both.
    const line = {
      session: { title: USER_TEXT, startedAt: new Date(Date.now() - 60_000).toISOString(), externalId: EXTERNAL_ID },
      consumer: { email: EMAIL },
      messages: [
        { role: 'user', content: USER_TEXT, createdAt: new Date(Date.now() - 50_000).toISOString() },
        {
          role: 'assistant',
          content: 'Done: it goes to the new address.',
          createdAt: new Date(Date.now() - 40_000).toISOString(),
          tools: [{ id: 'call_1', name: 'change_address', type: 'tool', success: true }],
        },
      ],
    };
    const imported = await p.call('POST', `/admin/v1/apps/${w.appId}/imports`, {
      token: p.adminToken,
      headers: { 'Content-Type': 'application/x-ndjson' },
      body: JSON.stringify(line),
    });
    expect(imported.status, imported.text).toBe(201);
    w.importedId = imported.body.data.sessionIds[0];
    const zdr = await secondApp(p, p.demo!.orgId, 'Forgetful desk');
    await patchSettings(p, zdr.appId, { zeroDataRetention: true });
    w.zdrSessionId = (await turn(p, zdr, 'Please forget this')).chatSessionId;
    expect((await p.admin('POST', '/jobs/usage-rollup/runs')).status).toBe(200);
  });

  const sessionsTable = (page: Page) => page.getByRole('table', { name: /^Sessions/ });
  /** The list filtered by the app, with a link to each of its sessions. */
  async function openAppSessions(role: 'owner' | 'developer' | 'viewer') {
    const page = await b.openAs(role, 'sessions');
    await page.getByLabel('App').selectOption({ label: 'Parcel desk' });
    await page.getByRole('button', { name: 'Find sessions' }).click();
    await sessionsTable(page).getByRole('caption').filter({ hasText: 'matching the filters' }).waitFor();
    return page;
  }

  it('finds the session by external id, shows its transcript, and deletes its consumer: the tombstone feed shows consumer_deleted', async () => {
    const page = await b.openAs('owner', 'sessions');
    await sessionsTable(page).waitFor();
    expect(await b.axe(page)).toEqual([]);
    await page.getByLabel('External id').fill(EXTERNAL_ID);
    await page.getByRole('button', { name: 'Find sessions' }).click();
    await sessionsTable(page).getByRole('caption').filter({ hasText: 'matching the filters' }).waitFor();
    const rows = sessionsTable(page).getByRole('row');
    expect(await rows.count()).toBe(2);
    await rows.nth(1).getByText(EMAIL).waitFor();
    await rows.nth(1).getByText('Parcel desk').waitFor();
    await b.screenshot(page, 'console-sessions-owner');

    await page.getByRole('link', { name: USER_TEXT }).click();
    await page.getByRole('heading', { level: 2, name: USER_TEXT }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/sessions/${w.importedId}`);
    const messages = page.getByRole('listitem').filter({ has: page.getByText(/^(User|Assistant)$/) });
    expect(await messages.count()).toBe(2);
    await messages.nth(0).getByText(USER_TEXT).waitFor();
    await messages.nth(1).getByRole('list', { name: 'Tool calls' }).getByText('Tool call change_address: succeeded').waitFor();
    expect(await b.axe(page)).toEqual([]);
    await b.screenshot(page, 'console-transcript-owner');

    await page.getByRole('button', { name: 'Delete the consumer and all their sessions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this consumer?' });
    await dialog.getByText('cause consumer_deleted', { exact: false }).waitFor();
    expect(await b.axe(page)).toEqual([]);
    await b.screenshot(page, 'console-consumer-delete-dialog');
    const confirm = dialog.getByRole('button', { name: 'Delete the consumer' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(`Type ${EMAIL} to confirm`).fill(EMAIL);
    await confirm.click();
    await page
      .getByRole('status')
      .filter({ hasText: `Deleted the consumer ${EMAIL}` })
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/sessions');
    await expect.poll(() => sessionsTable(page).getByRole('link', { name: USER_TEXT }).count()).toBe(0);

    const feed = await b.platform.call('GET', '/api/v1/org/tombstones?limit=100', { token: w.orgKey });
    expect(feed.status, feed.text).toBe(200);
    expect(feed.body.data).toContainEqual(expect.objectContaining({ resource_type: 'session', resource_id: w.importedId, cause: 'consumer_deleted' }));
    expect(feed.body.data).toContainEqual(expect.objectContaining({ resource_type: 'consumer', cause: 'consumer_deleted' }));
  });

  it('shows a Zero Data Retention session without messages, and deletes the session: its tombstone has cause consumer_deleted', async () => {
    const page = await b.openAs('owner', `sessions/${w.zdrSessionId}`);
    await page.getByText('This app keeps no messages (Zero Data Retention is on)', { exact: false }).waitFor();
    await page.getByRole('definition').filter({ hasText: 'Forgetful desk' }).waitFor();
    expect(await page.getByText('Please forget this').count()).toBe(0);
    await page.getByRole('button', { name: 'Delete this session' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this session?' });
    await dialog.getByLabel('Type delete session to confirm').fill('delete session');
    await dialog.getByRole('button', { name: 'Delete the session' }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted the session' }).waitFor();
    const feed = await b.platform.call('GET', '/api/v1/org/tombstones?limit=100', { token: w.orgKey });
    expect(feed.body.data).toContainEqual(expect.objectContaining({ resource_type: 'session', resource_id: w.zdrSessionId, cause: 'consumer_deleted' }));
  });

  it('lets a developer read a transcript but not delete: the buttons say why and the API answers 403', async () => {
    const page = await openAppSessions('developer');
    await page.getByRole('link', { name: 'Hello from a chat turn' }).click();
    await page.getByText('Hello from a chat turn', { exact: true }).last().waitFor();
    const del = page.getByRole('button', { name: 'Delete this session' });
    expect(await del.isDisabled()).toBe(true);
    await page.getByText('Only owners and admins delete sessions and consumers (your role: developer).').waitFor();
    expect(await del.getAttribute('aria-describedby')).toBeTruthy();
    expect(await b.axe(page)).toEqual([]);
    await b.screenshot(page, 'console-transcript-developer');
    await page.getByRole('link', { name: '← All sessions' }).click();
    await sessionsTable(page).getByRole('caption').filter({ hasText: 'matching the filters' }).waitFor();
    expect(await page.getByLabel('App').inputValue()).toBe(w.appId);
    // The filters are in the list's address: a reload (or the link, shared) shows the same list.
    expect(new URL(page.url()).search).toBe(`?appId=${w.appId}`);
    await page.reload();
    await sessionsTable(page).getByRole('caption').filter({ hasText: 'matching the filters' }).waitFor();
    expect(await page.getByLabel('App').inputValue()).toBe(w.appId);
    const refused = await page.request.fetch(`${orgApi()}/sessions/${w.turnSessionId}`, { method: 'DELETE', headers: { 'X-Console-Request': '1' } });
    expect(refused.status()).toBe(403);
    expect(await refused.text()).toContain('conversations.delete');
  });

  it('shows a viewer the session’s metadata without messages, and the API refuses them the transcript', async () => {
    const page = await openAppSessions('viewer');
    await page.getByText('Your role (viewer) sees sessions without their messages or titles.').waitFor();
    expect(await sessionsTable(page).getByText('Hello from a chat turn').count()).toBe(0);
    await page.getByRole('link', { name: `Session ${w.turnSessionId.slice(0, 8)}` }).click();
    await page.getByText('Your role sees sessions without their messages').waitFor();
    await page.getByRole('definition').filter({ hasText: 'Parcel desk' }).waitFor();
    expect(await page.getByText('Hello from a chat turn').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete this session' }).isDisabled()).toBe(true);
    expect(await b.axe(page)).toEqual([]);
    await b.screenshot(page, 'console-session-viewer');
    const refused = await page.request.fetch(`${orgApi()}/sessions/${w.turnSessionId}`);
    expect(refused.status()).toBe(403);
    expect(await refused.text()).not.toContain('Hello from a chat turn');
    // Opened directly, the page still says why and asks the API nothing it would refuse (the page is guarded).
    const direct = await b.openAs('viewer', `sessions/${w.turnSessionId}`);
    await direct.getByText('Your role sees sessions without their messages').waitFor();
  });

  it('shows usage after the rollup as a chart and its table, by day and by app, and downloads the table as CSV', async () => {
    const page = await b.openAs('owner', 'usage');
    const today = new Date().toISOString().slice(0, 10);
    await page.getByRole('img', { name: /^Calls per day/ }).waitFor();
    const byDay = page.getByRole('table', { name: /^Usage per day/ });
    const todayRow = byDay.getByRole('row').filter({ has: page.getByRole('rowheader', { name: today }) });
    expect(Number(await todayRow.getByRole('cell').first().textContent())).toBeGreaterThanOrEqual(1);
    expect(await b.axe(page)).toEqual([]);

    await page.getByRole('radio', { name: 'App' }).check();
    const byApp = page.getByRole('table', { name: /^Usage per app/ });
    await byApp.getByRole('rowheader', { name: 'Parcel desk' }).waitFor();
    await page.getByRole('img', { name: /^Calls per app/ }).waitFor();
    await b.screenshot(page, 'console-usage-owner');

    type Row = { readonly children: ArrayLike<{ readonly textContent: string | null }> };
    const shown = await byApp.locator('tr').evaluateAll((rows: Row[]) =>
      rows.map((r) =>
        Array.from(r.children)
          .map((c) => (c.textContent ?? '').replace(/(\d),(?=\d{3})/g, '$1'))
          .join(','),
      ),
    );
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^usage-by-app-\d{4}-\d\d-\d\d-to-\d{4}-\d\d-\d\d\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(csv[0]).toBe('App,Calls,Input tokens,Output tokens,Cache read tokens,Cache write tokens,Cost (USD)');
    expect(csv).toEqual(shown);
  });
});
