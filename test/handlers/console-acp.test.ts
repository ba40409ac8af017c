/**
 * The console's ACP routes over HTTP against the local platform, as members of the seeded demo org: the
 * catalog (list, create, change), an order placed through the ACP checkout API and taken through its
 * life in the console (shipped, delivered, refunded, canceled), the order-event receiver, the order list
 * a page at a time; roles that may only read are refused changes; an app, product or order of another
 * org is 404 as an unknown one; and an admin ACP change lands in the org's audit log.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { acpCall } from '../support/acp-client';
import { demoMember, outsider, type ConsoleCaller } from '../support/console-sessions';
import { FakeResolver } from '../support/fake-resolver';
import { type TestPlatform, usePlatform } from '../support/platform';

const OK = { handler_id: 'platform_test_card', instrument: { type: 'card', credential: { type: 'spt', token: 'spt_test_ok' } } };
const RECEIVER = 'https://agents.example/orders';

describe('the console’s ACP catalog and orders', () => {
  let p: TestPlatform;
  usePlatform({ consoleSignIn: { kind: 'embedded', port: 0 }, seed: true, resolver: new FakeResolver().set('agents.example', ['93.184.215.14']) }, (x) => {
    p = x;
  });

  let owner: ConsoleCaller;
  let developer: ConsoleCaller;
  let viewer: ConsoleCaller;
  let acpKey: string;
  let mug: { id: string };
  const app = () => `/console/v1/orgs/${p.demo!.orgId}/apps/${p.demo!.appId}`;

  beforeAll(async () => {
    [owner, developer, viewer] = await Promise.all([demoMember(p, 'owner'), demoMember(p, 'developer'), demoMember(p, 'viewer')]);
    acpKey = (await p.admin('POST', `/apps/${p.demo!.appId}/acp-keys`, {})).body.data.key;
    const created = await owner.call('POST', `${app()}/products`, { body: { title: 'Mug', price: 1800, currency: 'usd', inventory: 10 } });
    expect(created.status, created.text).toBe(201);
    mug = created.body.data;
  });

  /** A completed ACP checkout of `quantity` mugs: its order id. */
  async function placeOrder(quantity = 1): Promise<string> {
    const appId = p.demo!.appId;
    const created = await acpCall(p, 'POST', `/acp/${appId}/checkout_sessions`, { token: acpKey, body: { line_items: [{ product_id: mug.id, quantity }] } });
    expect(created.status, created.text).toBe(201);
    const done = await acpCall(p, 'POST', `/acp/${appId}/checkout_sessions/${created.body.id}/complete`, { token: acpKey, body: { payment_data: OK } });
    expect(done.status, done.text).toBe(200);
    return done.body.order.id as string;
  }

  describe('the catalog', () => {
    it('is created and changed by an owner or developer and read by a viewer, in the admin API’s shape', async () => {
      expect(mug).toMatchObject({ appId: p.demo!.appId, title: 'Mug', price: 1800, currency: 'usd', inventory: 10, active: true });
      const cap = await developer.call('POST', `${app()}/products`, { body: { title: 'Cap', price: 1500, currency: 'USD' } });
      expect(cap.status, cap.text).toBe(201);
      expect(cap.body.data).toMatchObject({ title: 'Cap', currency: 'usd', inventory: null });

      const changed = await developer.call('PATCH', `${app()}/products/${cap.body.data.id}`, { body: { price: 1700, active: false } });
      expect(changed.status, changed.text).toBe(200);
      expect(changed.body.data).toMatchObject({ id: cap.body.data.id, price: 1700, active: false });

      const listed = await viewer.call('GET', `${app()}/products`);
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((x: { title: string }) => x.title)).toEqual(['Mug', 'Cap']);
      const admin = await p.admin('GET', `/apps/${p.demo!.appId}/products`);
      expect(listed.body.data).toEqual(admin.body.data);
    });

    it('refuses a viewer’s change, an empty change and an unknown field', async () => {
      const refused = await viewer.call('POST', `${app()}/products`, { body: { title: 'Pen', price: 100, currency: 'usd' } });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ error: { code: 'forbidden', message: 'Your role (viewer) may not do this: catalog.manage' } });
      expect((await viewer.call('PATCH', `${app()}/products/${mug.id}`, { body: { price: 1 } })).status).toBe(403);
      const empty = await owner.call('PATCH', `${app()}/products/${mug.id}`, { body: {} });
      expect(empty.status).toBe(400);
      expect(empty.body.error.message).toBe('Nothing to change: send at least one field');
      expect((await owner.call('POST', `${app()}/products`, { body: { title: 'Pen', price: 100, currency: 'usd', colour: 'red' } })).status).toBe(400);
      expect((await owner.call('GET', `${app()}/products?active=true`)).status).toBe(400);
    });
  });

  describe('an order', () => {
    it('is shipped, delivered, partly refunded and canceled by the owner; its events and delivery log are readable', async () => {
      const orderId = await placeOrder(2);
      const order = `${app()}/orders/${orderId}`;
      const read = await viewer.call('GET', order);
      expect(read.status, read.text).toBe(200);
      expect(read.body.data).toMatchObject({ id: orderId, status: 'confirmed', total: 3600, refunded: 0 });
      expect(read.body.data.acpOrder).toMatchObject({ id: orderId });

      const shipped = await owner.call('POST', `${order}/fulfillments`, { body: { type: 'shipping', carrier: 'UPS', trackingNumber: '1Z999AA10123456784' } });
      expect(shipped.status, shipped.text).toBe(200);
      expect(shipped.body.data.status).toBe('shipped');
      const fulfillmentId = shipped.body.data.acpOrder.fulfillments.at(-1).id as string;

      const delivered = await owner.call('POST', `${order}/fulfillments/${fulfillmentId}/deliver`);
      expect(delivered.status, delivered.text).toBe(200);
      expect(delivered.body.data.status).toBe('completed');
      expect((await owner.call('POST', `${order}/fulfillments/${fulfillmentId}/deliver`)).status).toBe(409);

      const lineId = read.body.data.lines[0].lineId as string;
      const refunded = await owner.call('POST', `${order}/refunds`, { body: { amount: 1800, lines: [{ lineId, quantity: 1 }], reason: 'Chipped' } });
      expect(refunded.status, refunded.text).toBe(200);
      expect(refunded.body.data.refunded).toBe(1800);

      const canceled = await owner.call('POST', `${order}/cancel`, { body: {} });
      expect(canceled.status, canceled.text).toBe(200);
      expect(canceled.body.data).toMatchObject({ status: 'canceled', refunded: 3600 });
      expect(await p.admin('GET', `/apps/${p.demo!.appId}/orders/${orderId}`).then((r) => r.body.data)).toEqual(canceled.body.data);

      const events = await viewer.call('GET', `${order}/events`);
      expect(events.status, events.text).toBe(200);
      expect(events.body.data).toMatchObject({ orderId, deliveredThrough: expect.any(Number), pending: expect.any(Array), attempts: expect.any(Array) });
    });

    it('is changed only by roles with orders.manage: a developer and a viewer read it but may not change it', async () => {
      const orderId = await placeOrder();
      const order = `${app()}/orders/${orderId}`;
      expect((await developer.call('GET', order)).status).toBe(200);
      for (const caller of [developer, viewer]) {
        for (const [path, body] of [
          [`${order}/fulfillments`, { type: 'digital' }],
          [`${order}/refunds`, { amount: 100 }],
          [`${order}/cancel`, {}],
          [`${order}/fulfillments/ful_${randomUUID()}/deliver`, undefined],
        ] as const) {
          const res = await caller.call('POST', path, body === undefined ? {} : { body });
          expect(res.status, `${path} ${res.text}`).toBe(403);
          expect(res.body.error.message).toMatch(/may not do this: orders\.manage$/);
        }
      }
      expect((await owner.call('GET', order)).body.data.status).toBe('confirmed');
    });

    it('lists a page at a time, newest first, with a cursor for the next page', async () => {
      const placed = [await placeOrder(), await placeOrder(), await placeOrder()];
      const first = await viewer.call('GET', `${app()}/orders?limit=2`);
      expect(first.status, first.text).toBe(200);
      expect(first.body.data.map((o: { id: string }) => o.id)).toEqual([placed[2], placed[1]]);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const next = await viewer.call('GET', `${app()}/orders?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
      expect(next.body.data[0].id).toBe(placed[0]);
      const all = await viewer.call('GET', `${app()}/orders?limit=100`);
      expect(all.body.nextCursor).toBeNull();
      expect(all.body.data.length).toBeGreaterThanOrEqual(3);
      for (const bad of ['limit=0', 'limit=101', 'cursor=bm9wZQ', 'page=2']) {
        const res = await viewer.call('GET', `${app()}/orders?${bad}`);
        expect(res.status, bad).toBe(400);
      }
    });
  });

  describe('the order-event receiver', () => {
    it('is set (its secret shown once), read without it, rotated and removed by an owner; a developer only reads it', async () => {
      const appRes = await p.admin('POST', `/orgs/${p.demo!.orgId}/apps`, { name: 'Shop without orders' });
      const receiver = `/console/v1/orgs/${p.demo!.orgId}/apps/${appRes.body.data.id}/acp/order-webhook`;
      const none = await owner.call('GET', receiver);
      expect([none.status, none.body]).toEqual([200, { data: null }]);

      const set = await owner.call('PUT', receiver, { body: { url: RECEIVER } });
      expect(set.status, set.text).toBe(200);
      expect(set.body.data).toMatchObject({ url: RECEIVER, secret: expect.stringMatching(/^acpwhsec_/) });
      const read = await developer.call('GET', receiver);
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual({ appId: appRes.body.data.id, url: RECEIVER, createdAt: expect.any(String), updatedAt: expect.any(String) });

      const given = 'x'.repeat(40);
      const rotated = await owner.call('PUT', receiver, { body: { url: RECEIVER, secret: given } });
      expect(rotated.status).toBe(200);
      expect(rotated.body.data).not.toHaveProperty('secret');
      expect((await owner.call('PUT', receiver, { body: { url: 'https://unresolvable.example/x' } })).status).toBe(400);

      expect((await developer.call('PUT', receiver, { body: { url: RECEIVER } })).status).toBe(403);
      expect((await developer.call('DELETE', receiver)).status).toBe(403);
      expect((await owner.call('DELETE', receiver)).status).toBe(204);
      expect((await viewer.call('GET', receiver)).body).toEqual({ data: null });
    });
  });

  describe('tenancy below the org', () => {
    it('answers 404 for an app, product or order of another org, as for unknown ones; and for a deleted app', async () => {
      const stranger = await outsider(p, 'acp-stranger');
      const theirApp = (await p.admin('POST', `/orgs/${stranger.orgId}/apps`, { name: 'Their shop' })).body.data.id as string;
      const theirProduct = (
        await stranger.call('POST', `/console/v1/orgs/${stranger.orgId}/apps/${theirApp}/products`, {
          body: { title: 'Theirs', price: 100, currency: 'usd' },
        })
      ).body.data.id as string;
      const orderId = await placeOrder();
      const appNotFound = { error: { code: 'not_found', message: 'App not found' } };

      // The demo org's app named under the stranger's own org, where the stranger is owner.
      const demoAppUnderTheirs = `/console/v1/orgs/${stranger.orgId}/apps/${p.demo!.appId}`;
      for (const [method, path, body] of [
        ['GET', `${demoAppUnderTheirs}/products`, undefined],
        ['POST', `${demoAppUnderTheirs}/products`, { title: 'Sneaky', price: 1, currency: 'usd' }],
        ['PATCH', `${demoAppUnderTheirs}/products/${mug.id}`, { price: 1 }],
        ['GET', `${demoAppUnderTheirs}/orders`, undefined],
        ['GET', `${demoAppUnderTheirs}/orders/${orderId}`, undefined],
        ['GET', `${demoAppUnderTheirs}/orders/${orderId}/events`, undefined],
        ['POST', `${demoAppUnderTheirs}/orders/${orderId}/cancel`, {}],
        ['POST', `${demoAppUnderTheirs}/orders/${orderId}/refunds`, { amount: 100 }],
        ['GET', `${demoAppUnderTheirs}/acp/order-webhook`, undefined],
        ['PUT', `${demoAppUnderTheirs}/acp/order-webhook`, { url: RECEIVER }],
        ['DELETE', `${demoAppUnderTheirs}/acp/order-webhook`, undefined],
      ] as const) {
        const res = await stranger.call(method, path, body === undefined ? {} : { body });
        expect(res.status, `${method} ${path} ${res.text}`).toBe(404);
        expect(res.body).toEqual(appNotFound);
      }
      // Their own app, with the demo org's product and order ids.
      const own = `/console/v1/orgs/${stranger.orgId}/apps/${theirApp}`;
      const product = await stranger.call('PATCH', `${own}/products/${mug.id}`, { body: { price: 1 } });
      expect(product.body).toEqual({ error: { code: 'not_found', message: 'Product not found' } });
      const order = await stranger.call('GET', `${own}/orders/${orderId}`);
      expect(order.body).toEqual({ error: { code: 'not_found', message: 'Order not found' } });
      expect((await stranger.call('POST', `${own}/orders/${orderId}/cancel`, { body: {} })).status).toBe(404);
      // The demo owner, with the stranger's app and product under the demo org.
      expect((await owner.call('GET', `/console/v1/orgs/${p.demo!.orgId}/apps/${theirApp}/products`)).body).toEqual(appNotFound);
      expect((await owner.call('PATCH', `${app()}/products/${theirProduct}`, { body: { price: 1 } })).status).toBe(404);
      expect((await p.admin('GET', `/apps/${p.demo!.appId}/orders/${orderId}`)).body.data.status).toBe('confirmed');
      expect((await p.admin('GET', `/apps/${p.demo!.appId}/products`)).body.data.find((x: { id: string }) => x.id === mug.id).price).toBe(1800);

      const doomed = (await p.admin('POST', `/orgs/${p.demo!.orgId}/apps`, { name: 'Doomed shop' })).body.data.id as string;
      expect((await owner.call('GET', `/console/v1/orgs/${p.demo!.orgId}/apps/${doomed}/products`)).status).toBe(200);
      expect((await p.admin('DELETE', `/apps/${doomed}`)).status).toBeLessThan(300);
      expect((await owner.call('GET', `/console/v1/orgs/${p.demo!.orgId}/apps/${doomed}/products`)).body).toEqual(appNotFound);
    });
  });

  describe('the audit log', () => {
    it('records an admin ACP change in the app’s org, and a console one with the member who made it', async () => {
      const viaAdmin = await p.admin('POST', `/apps/${p.demo!.appId}/products`, { title: 'Admin pen', price: 300, currency: 'usd' });
      expect(viaAdmin.status).toBe(201);
      const adminLog = await owner.call('GET', `/console/v1/orgs/${p.demo!.orgId}/audit-log?action=adminProductCreate`);
      expect(adminLog.status, adminLog.text).toBe(200);
      expect(adminLog.body.data[0]).toMatchObject({
        action: 'adminProductCreate',
        actor: { kind: 'operator' },
        resource: { type: 'product', id: viaAdmin.body.data.id },
      });

      const viaConsole = await developer.call('PATCH', `${app()}/products/${viaAdmin.body.data.id}`, { body: { active: false } });
      expect(viaConsole.status).toBe(200);
      const consoleLog = await owner.call('GET', `/console/v1/orgs/${p.demo!.orgId}/audit-log?action=consoleProductUpdate`);
      expect(consoleLog.body.data[0]).toMatchObject({
        actor: { kind: 'member', id: developer.userKey },
        resource: { type: 'product', id: viaAdmin.body.data.id },
        after: { active: false },
      });
    });
  });
});
