/**
 * An ACP order taken from placed to `completed` through the admin API over HTTP against the local
 * platform (shipped with tracking, then delivered), and the same through the admin CLI (`npm run admin
 * -- order fulfill` then `order deliver` with the fulfillment id the first printed). The fulfillment
 * path id is `ful_<uuid>`, the shape the route declares: anything else is 404 `Fulfillment not found`.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acpCall } from '../support/acp-client';
import { startTestPlatform, type Fixture, type TestPlatform } from '../support/platform';

const run = promisify(execFile);
const OK = { handler_id: 'platform_test_card', instrument: { type: 'card', credential: { type: 'spt', token: 'spt_test_ok' } } };

describe('an order delivered through the admin API', () => {
  let p: TestPlatform;
  let f: Fixture;
  let acpKey: string;
  let mug: { id: string };

  beforeAll(async () => {
    p = await startTestPlatform();
    f = await p.fixture();
    acpKey = (await p.admin('POST', `/apps/${f.appId}/acp-keys`, {})).body.data.key;
    mug = (await p.admin('POST', `/apps/${f.appId}/products`, { title: 'Mug', price: 1800, currency: 'usd', inventory: 10 })).body.data;
  });

  afterAll(async () => {
    await p?.stop();
  });

  /** A completed checkout of one mug: its order id. */
  async function placeOrder(): Promise<string> {
    const created = await acpCall(p, 'POST', `/acp/${f.appId}/checkout_sessions`, {
      token: acpKey,
      body: { line_items: [{ product_id: mug.id, quantity: 1 }] },
    });
    expect(created.status, created.text).toBe(201);
    const done = await acpCall(p, 'POST', `/acp/${f.appId}/checkout_sessions/${created.body.id}/complete`, { token: acpKey, body: { payment_data: OK } });
    expect(done.status, done.text).toBe(200);
    return done.body.order.id as string;
  }

  /** `npm run admin -- <args>` against the test platform: its parsed output and exit code. */
  async function cli(args: readonly string[]): Promise<{ code: number; out: any }> {
    const env = { ...process.env, ADMIN_API_URL: p.baseUrl, ADMIN_TOKEN: p.adminToken };
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'functions/cli/admin.ts', ...args], { env });
      return { code: 0, out: JSON.parse(stdout) };
    } catch (err) {
      const e = err as { code: number; stdout: string };
      return { code: e.code, out: JSON.parse(e.stdout) };
    }
  }

  it('placed, shipped with tracking, delivered: the order is completed, its fulfillment delivered', async () => {
    const orderId = await placeOrder();
    const orderPath = `/apps/${f.appId}/orders/${orderId}`;
    const shipped = await p.admin('POST', `${orderPath}/fulfillments`, { type: 'shipping', carrier: 'UPS', trackingNumber: '1Z999AA10123456784' });
    expect(shipped.status, shipped.text).toBe(200);
    expect(shipped.body.data.status).toBe('shipped');
    const fulfillment = shipped.body.data.acpOrder.fulfillments[0];
    expect(fulfillment).toMatchObject({ type: 'shipping', status: 'shipped', carrier: 'UPS', tracking_number: '1Z999AA10123456784' });
    expect(fulfillment.id).toMatch(/^ful_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    const delivered = await p.admin('POST', `${orderPath}/fulfillments/${fulfillment.id}/deliver`);
    expect(delivered.status, delivered.text).toBe(200);
    expect(delivered.body.data.status).toBe('completed');
    expect(delivered.body.data.acpOrder.fulfillments[0]).toMatchObject({ id: fulfillment.id, status: 'delivered' });
    expect((await p.admin('GET', orderPath)).body.data.status).toBe('completed');

    const again = await p.admin('POST', `${orderPath}/fulfillments/${fulfillment.id}/deliver`);
    expect(again.status, again.text).toBe(409);
  });

  it('a fulfillment id of another shape names no fulfillment: 404 Fulfillment not found, before the order is read', async () => {
    const orderId = await placeOrder();
    const orderPath = `/apps/${f.appId}/orders/${orderId}`;
    const shipped = await p.admin('POST', `${orderPath}/fulfillments`, { type: 'shipping' });
    const id = shipped.body.data.acpOrder.fulfillments[0].id as string;
    for (const wrong of [id.slice(4), `adj_${id.slice(4)}`, `${id}x`, 'ful_']) {
      const res = await p.admin('POST', `${orderPath}/fulfillments/${encodeURIComponent(wrong)}/deliver`);
      expect(res.status, wrong).toBe(404);
      expect(res.body).toEqual({ error: { code: 'not_found', message: 'Fulfillment not found' } });
    }
    // A well-formed id the order does not hold is the use case's 404.
    const unknown = await p.admin('POST', `${orderPath}/fulfillments/ful_00000000-0000-4000-8000-000000000000/deliver`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('The order has no fulfillment ful_00000000-0000-4000-8000-000000000000');
    // The order id is still a UUID: anything else is 404 Order not found.
    const badOrder = await p.admin('POST', `/apps/${f.appId}/orders/${id}/fulfillments/${id}/deliver`);
    expect(badOrder.body).toEqual({ error: { code: 'not_found', message: 'Order not found' } });
  });

  it('`npm run admin -- order deliver --fulfillment <id printed by order fulfill>` completes the order', async () => {
    const orderId = await placeOrder();
    const fulfilled = await cli([
      'order',
      'fulfill',
      '--app',
      f.appId,
      '--order',
      orderId,
      '--type',
      'shipping',
      '--carrier',
      'UPS',
      '--tracking-number',
      '1Z1',
    ]);
    expect(fulfilled.code, JSON.stringify(fulfilled.out)).toBe(0);
    const fulfillmentId = fulfilled.out.data.acpOrder.fulfillments.at(-1).id as string;
    const delivered = await cli(['order', 'deliver', '--app', f.appId, '--order', orderId, '--fulfillment', fulfillmentId]);
    expect(delivered.code, JSON.stringify(delivered.out)).toBe(0);
    expect(delivered.out.data.status).toBe('completed');
  }, 30_000);
});
