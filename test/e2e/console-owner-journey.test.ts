/**
 * A builder's first day in the console, as the owner, in Chromium: make an app, make its chat key and
 * copy it from the show-once dialog, chat with it through the API (a file attached), find the session in
 * the console, read its transcript, delete it; the org export's deletion feed then shows the session's
 * tombstone with cause `consumer_deleted`. Every page is guarded; axe runs on each.
 */
import { describe, expect, it } from 'vitest';
import { COMPLETIONS } from '../support/chat';
import { CHROMIUM, type ConsoleBrowser, useConsoleBrowser } from '../support/console-browser';
import { png } from '../support/file-fixtures';
import { uploaded } from '../support/uploads';

const APP = 'Parcel helper';
const QUESTION = 'Where is parcel 7731? The label is attached.';

describe.skipIf(!CHROMIUM)('the owner’s journey through the web console', () => {
  let b: ConsoleBrowser;
  // The export shows a turn once it is older than the visibility delay; the console lists it at once here.
  useConsoleBrowser(
    (x) => {
      b = x;
    },
    { visibilityDelayMs: 0 },
  );

  it('goes from a new app to a deleted session and its tombstone in the export', async () => {
    const page = await b.openAs('owner', 'apps');
    await page.getByLabel('App name').fill(APP);
    await page.getByRole('button', { name: 'Create app' }).click();
    await page.getByRole('heading', { level: 2, name: APP }).waitFor();
    const appId = new URL(page.url()).pathname.split('/').pop()!;
    const appNameId = ((await b.platform.admin('GET', `/apps/${appId}`)).body.data as { appNameId: string }).appNameId;

    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Keys' }).click();
    await page.getByRole('button', { name: 'Create a key…' }).click();
    const create = page.getByRole('dialog', { name: 'Create a key' });
    await create.getByLabel(/Chat key/).check();
    await create.getByLabel('App', { exact: true }).selectOption({ label: `${APP} (${appNameId})` });
    await create.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('dialog', { name: /copy it now/ });
    await shown.getByRole('button', { name: 'Copy the key' }).click();
    await shown.getByText('Copied').first().waitFor();
    const chatKey = await page.evaluate<string>('navigator.clipboard.readText()');
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.getByRole('button', { name: 'Close, I have saved it' }).click();
    await shown.waitFor({ state: 'detached' });

    const label = await uploaded(b.platform, chatKey, 'label.png', png(4, 4));
    const turn = await b.platform.call('POST', COMPLETIONS, {
      token: chatKey,
      body: { model: appNameId, messages: [{ role: 'user', content: QUESTION }], files: [{ fileId: label.fileId, fileName: 'label.png' }] },
    });
    expect(turn.status, turn.text).toBe(200);
    const sessionId = turn.body.chatSessionId as string;

    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Sessions' }).click();
    await page.getByLabel('App').selectOption({ label: APP });
    await page.getByRole('button', { name: 'Find sessions' }).click();
    const sessions = page.getByRole('table', { name: /^Sessions/ });
    await sessions.getByRole('caption').filter({ hasText: 'matching the filters' }).waitFor();
    expect(await sessions.getByRole('row').count()).toBe(2);
    expect(await b.axe(page)).toEqual([]);
    await sessions.getByRole('link').first().click();
    await page.getByRole('heading', { level: 2, name: QUESTION }).waitFor();
    const asked = page.getByRole('listitem').filter({ has: page.getByText('User', { exact: true }) });
    await asked.getByText(QUESTION).waitFor();
    await asked.getByRole('list', { name: 'Attached files' }).getByText('label.png').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/sessions/${sessionId}`);
    expect(await b.axe(page)).toEqual([]);
    await b.screenshot(page, 'console-journey-transcript');

    await page.getByRole('button', { name: 'Delete this session' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this session?' });
    await confirm.getByLabel(/Type delete session to confirm/).fill('delete session');
    await confirm.getByRole('button', { name: 'Delete the session' }).click();
    await page.getByRole('status').filter({ hasText: 'with cause consumer_deleted' }).waitFor();

    const orgKey = await b.platform.admin('POST', `/orgs/${b.platform.demo!.orgId}/keys`, { scopes: ['tombstones:read'] });
    const feed = await b.platform.call('GET', '/api/v1/org/tombstones', { token: orgKey.body.data.key });
    expect(feed.status, feed.text).toBe(200);
    expect(feed.body.data).toContainEqual(expect.objectContaining({ resource_type: 'session', resource_id: sessionId, cause: 'consumer_deleted' }));
  });
});
