/**
 * The console's catalog and orders in Chromium against the local platform, with the agent platform's
 * order-event receiver a real HTTPS server on loopback (test CA, test-only SSRF exception): an admin
 * adds a product, sets the policies, tax and receiver (its generated secret shown once); an order is
 * placed through the ACP API with an ACP key, then shipped with tracking, delivered and partly refunded
 * in the console until it is completed with its refund and events shown. A viewer sees every change
 * disabled with the reason, and the API refuses the viewer's refund. axe on every page and dialog.
 */
import type { Page } from 'playwright-core';
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { acpCall } from '../support/acp-client';
import { CHROMIUM, type ConsoleBrowser, useConsoleBrowser } from '../support/console-browser';
import { FakeResolver } from '../support/fake-resolver';
import { RECEIVER_HOST, WebhookReceiver } from '../support/webhook-receiver';

const OK = { handler_id: 'platform_test_card', instrument: { type: 'card', credential: { type: 'spt', token: 'spt_test_ok' } } };

describe.skipIf(!CHROMIUM)('the console’s catalog and orders in Chromium', () => {
  let b: ConsoleBrowser;
  let receiver: WebhookReceiver;
  // Filled in once the receiver has its CA, before the platform starts (hooks run in order).
  const network = { allowAddresses: ['127.0.0.1'], trustedCaPem: '' };
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    network.trustedCaPem = receiver.caPem;
  });
  afterAll(() => receiver?.stop());
  useConsoleBrowser(
    (x) => {
      b = x;
    },
    { resolver: new FakeResolver().set(RECEIVER_HOST, ['127.0.0.1']), webhookNetwork: network },
  );

  const appId = () => b.platform.demo!.appId;
  const orgId = () => b.platform.demo!.orgId;
  let orderId: string;

  async function openApp(page: Page) {
    await page.getByRole('navigation', { name: 'Apps' }).getByRole('link', { name: 'Demo Assistant' }).click();
    await page.getByRole('heading', { level: 2, name: 'Products' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/catalog/${appId()}`);
  }

  it('lets an admin add a product, shown with its price in its currency', async () => {
    const page = await b.openAs('admin', 'catalog');
    await openApp(page);
    await page.getByText('No products yet').waitFor();
    await page.getByRole('button', { name: 'Add a product' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a product' });
    await dialog.getByLabel('Title').fill('Travel mug');
    await dialog.getByLabel('Description').fill('Keeps coffee warm');
    await dialog.getByLabel('Price').fill('18');
    await dialog.getByLabel('Stock').fill('10');
    expect(await b.axe(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Add product' }).click();
    await page.getByRole('status').filter({ hasText: 'Travel mug is added to the catalog at 18.00 USD.' }).waitFor();
    const row = page.getByRole('table', { name: /Products of the app/ }).getByRole('row', { name: /Travel mug/ });
    await row.getByRole('cell', { name: '18.00 USD' }).waitFor();
    await row.getByRole('cell', { name: '10' }).waitFor();

    await row.getByRole('button', { name: 'Edit Travel mug' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Travel mug' });
    await edit.getByLabel('Stock').fill('12');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Travel mug is changed.' }).waitFor();
    await row.getByRole('cell', { name: '12' }).waitFor();
    await row.getByRole('button', { name: 'Take off sale Travel mug' }).click();
    await page.getByRole('status').filter({ hasText: 'Travel mug is off sale' }).waitFor();
    await row.getByRole('button', { name: 'Put on sale Travel mug' }).click();
    await page.getByRole('status').filter({ hasText: 'Travel mug is on sale again.' }).waitFor();
    expect(await b.axe(page)).toEqual([]);
  });

  it('sets the policies and tax, and the order-event receiver whose generated secret is shown once', async () => {
    const page = await b.openAs('admin', `catalog/${appId()}`);
    await page.getByText('No receiver: order changes').waitFor();
    await page.getByLabel('Return policy URL').fill('https://shop.example/returns');
    await page.getByLabel('Tax rate (%)').fill('8.25');
    await page.getByRole('button', { name: 'Save policies and tax' }).click();
    await page.getByRole('status').filter({ hasText: 'new checkout sessions add 8.25% tax' }).waitFor();
    const app = await b.platform.admin('GET', `/apps/${appId()}`);
    expect(app.body.data.settings.acp).toMatchObject({ returnPolicyUrl: 'https://shop.example/returns', taxRateBps: 825 });

    await page.getByLabel('Receiver URL').fill(receiver.url('/orders'));
    await page.getByRole('button', { name: 'Set the receiver' }).click();
    const dialog = page.getByRole('dialog', { name: 'The receiver’s signing secret' });
    await dialog.getByText(/^acpwhsec_/).waitFor();
    expect(await b.axe(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Copy the secret' }).click();
    await dialog.getByText('Copied').waitFor();
    // Closing asks first, inside the dialog: Back keeps the secret on screen.
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Back to the secret' }).click();
    await dialog.getByText(/^acpwhsec_/).waitFor();
    await dialog.getByRole('button', { name: 'I have kept it' }).click();
    await dialog.getByRole('button', { name: 'Close, I have kept it' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByRole('definition')
      .filter({ hasText: receiver.url('/orders') })
      .waitFor();
    expect(await b.axe(page)).toEqual([]);
    await b.screenshot(page, 'console-catalog');
  });

  it('takes an order placed through the ACP API to completed: shipped with tracking, delivered, a unit refunded', async () => {
    const acpKey = (await b.platform.admin('POST', `/apps/${appId()}/acp-keys`, { name: 'e2e agent' })).body.data.key as string;
    const products = await b.platform.admin('GET', `/apps/${appId()}/products`);
    const mug = (products.body.data as { id: string; title: string }[]).find((x) => x.title === 'Travel mug')!;
    const session = await acpCall(b.platform, 'POST', `/acp/${appId()}/checkout_sessions`, {
      token: acpKey,
      body: { line_items: [{ product_id: mug.id, quantity: 2 }] },
    });
    expect(session.status, session.text).toBe(201);
    const done = await acpCall(b.platform, 'POST', `/acp/${appId()}/checkout_sessions/${session.body.id}/complete`, {
      token: acpKey,
      body: { payment_data: OK },
    });
    expect(done.status, done.text).toBe(200);
    orderId = done.body.order.id;

    const page = await b.openAs('admin', `catalog/${appId()}`);
    await page.getByRole('table', { name: 'ACP keys of the app' }).getByRole('cell', { name: 'e2e agent' }).waitFor();
    const orders = page.getByRole('table', { name: /Orders, newest first/ });
    await orders
      .getByRole('row', { name: /2 × Travel mug/ })
      .getByRole('cell', { name: 'confirmed' })
      .waitFor();
    await orders.getByRole('link', { name: new RegExp(orderId) }).click();
    await page.getByRole('heading', { level: 2, name: `Order ${orderId}` }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/catalog/${appId()}/orders/${orderId}`);
    await page.getByRole('definition').filter({ hasText: 'Confirmed: paid, nothing sent yet' }).waitFor();

    await page.getByRole('button', { name: 'Fulfil' }).click();
    const fulfil = page.getByRole('dialog', { name: 'Fulfil the order' });
    await fulfil.getByText('Sends every unit not sent yet: 2 × Travel mug').waitFor();
    await fulfil.getByLabel('Carrier').fill('UPS');
    await fulfil.getByLabel('Tracking number').fill('1Z999AA10123456784');
    expect(await b.axe(page)).toEqual([]);
    await fulfil.getByRole('button', { name: 'Record the fulfilment' }).click();
    await page.getByRole('status').filter({ hasText: 'The order is now shipped.' }).waitFor();
    const shipments = page.getByRole('table', { name: 'Fulfilments' });
    await shipments.getByRole('cell', { name: 'UPS 1Z999AA10123456784' }).waitFor();

    await shipments.getByRole('button', { name: 'Mark delivered (fulfilment 1)' }).click();
    await page.getByRole('status').filter({ hasText: 'The order is now completed.' }).waitFor();

    await page.getByRole('button', { name: 'Refund returned units' }).click();
    const refund = page.getByRole('dialog', { name: 'Refund returned units' });
    await refund.getByLabel('Units returned').fill('1');
    await refund.getByLabel('Reason').fill('Chipped');
    // 18.00 and 8.25% tax on it (1.485, rounded half-up to 1.49).
    await refund.getByText('The buyer gets 19.49 USD back').waitFor();
    expect(await b.axe(page)).toEqual([]);
    await refund.getByRole('button', { name: 'Refund 19.49 USD' }).click();
    await page.getByRole('status').filter({ hasText: 'Refunded 19.49 USD for 1 × Travel mug' }).waitFor();

    await page.getByRole('definition').filter({ hasText: 'Completed: everything delivered' }).waitFor();
    const adjustments = page.getByRole('table', { name: 'Refunds and cancellations' });
    const refunded = adjustments.getByRole('row', { name: /Chipped/ });
    await refunded.getByRole('cell', { name: '19.49 USD' }).waitFor();
    await refunded.getByRole('cell', { name: '1 × Travel mug' }).waitFor();
    const events = page.getByRole('table', { name: 'Events of the order and their delivery' });
    await events
      .getByRole('row', { name: /Order created/ })
      .first()
      .waitFor();
    expect(await events.getByRole('row', { name: /Order changed/ }).count()).toBeGreaterThanOrEqual(1);

    await page.getByRole('button', { name: 'Cancel the order' }).click();
    const cancel = page.getByRole('dialog', { name: 'Cancel the order' });
    await cancel.getByText('Every unit was sent already').waitFor();
    expect(await b.axe(page)).toEqual([]);
    await cancel.getByRole('button', { name: 'Cancel', exact: true }).click();
    await cancel.waitFor({ state: 'detached' });
    expect(await b.axe(page)).toEqual([]);
    await b.screenshot(page, 'console-order');
    const order = await b.platform.admin('GET', `/apps/${appId()}/orders/${orderId}`);
    expect(order.body.data).toMatchObject({ status: 'completed', refunded: 1949 });
  });

  it('shows a viewer the changes disabled with the reason, and the API refuses the viewer’s refund', async () => {
    const page = await b.openAs('viewer', `catalog/${appId()}/orders/${orderId}`);
    const refund = page.getByRole('button', { name: 'Refund returned units' });
    await refund.waitFor();
    expect(await refund.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Cancel the order' }).isDisabled()).toBe(true);
    await page.getByText('Only owners and admins change orders (your role: viewer).').first().waitFor();
    expect(await refund.getAttribute('aria-describedby')).toBeTruthy();

    const refused = await page.request.fetch(`${b.platform.baseUrl}/console/v1/orgs/${orgId()}/apps/${appId()}/orders/${orderId}/refunds`, {
      method: 'POST',
      headers: { 'X-Console-Request': '1', 'Content-Type': 'application/json', Origin: new URL(b.platform.baseUrl).origin },
      data: { amount: 100 },
    });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error.message).toMatch(/may not do this: orders\.manage$/);
    expect(await b.axe(page)).toEqual([]);
    await b.screenshot(page, 'console-order-viewer');

    await page.getByRole('link', { name: 'Back to the app’s catalog and orders' }).click();
    const add = page.getByRole('button', { name: 'Add a product' });
    await add.waitFor();
    expect(await add.isDisabled()).toBe(true);
    await page.getByText('Only owners, admins and developers change the catalog (your role: viewer).').first().waitFor();
    expect(await page.getByRole('button', { name: 'Remove the receiver' }).isDisabled()).toBe(true);
    expect(await b.axe(page)).toEqual([]);
    await b.screenshot(page, 'console-catalog-viewer');
  });
});
