/**
 * `npm run admin -- order-webhook listen` against the real local platform: with the development switch
 * (`PLATFORM_DEV_WEBHOOKS=1`, read by localPlatformOptions) a listener on 127.0.0.1 becomes the app's
 * order-event receiver and gets `order_create` of an order placed through the ACP API, signed with the
 * secret it printed, through the order-events worker's exception for that listener alone; stopping it
 * removes the app's receiver. Without the switch the listener is refused with a message naming the
 * switch, and a loopback receiver set through the admin API is still 400.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListenRefused } from '../../functions/cli/dev-listener';
import { listenForOrderEvents } from '../../functions/cli/order-webhook-listen';
import { localPlatformOptions } from '../../functions/local/main-options';
import { acpCall } from '../support/acp-client';
import { spawnListen, startForwardTarget } from '../support/listen-cli';
import { startTestPlatform, usePlatform, type Fixture, type TestPlatform } from '../support/platform';
import { waitFor } from '../support/webhook-receiver';

const OK = { handler_id: 'platform_test_card', instrument: { type: 'card', credential: { type: 'spt', token: 'spt_test_ok' } } };

/** The webhooks API's check, written here from its text: `t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, t within 300 s. */
function independentlyVerified(secret: string, raw: Buffer, header: string | undefined): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!m || Math.abs(Date.now() / 1000 - Number(m[1])) > 300) return false;
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(Buffer.concat([Buffer.from(`${m[1]}.`), raw]))
    .digest();
  return timingSafeEqual(mac, Buffer.from(m[2]!, 'hex'));
}

const setReceiver = (p: TestPlatform, appId: string, url: string) => p.admin('PUT', `/apps/${appId}/acp/order-webhook`, { url });
const receiverOf = (p: TestPlatform, appId: string) => p.admin('GET', `/apps/${appId}/acp/order-webhook`);

const printed: string[] = [];
const print = (text: string) => printed.push(text);

describe('with PLATFORM_DEV_WEBHOOKS=1', () => {
  let p: TestPlatform;
  let f: Fixture;
  let acpKey: string;
  let mug: { id: string };

  /** One mug bought through the ACP API, as an agent buys it: the order's id and its session's. */
  async function placeOrder(): Promise<{ orderId: string; sessionId: string }> {
    const created = await acpCall(p, 'POST', `/acp/${f.appId}/checkout_sessions`, {
      token: acpKey,
      body: { line_items: [{ product_id: mug.id, quantity: 1 }] },
    });
    expect(created.status, created.text).toBe(201);
    const done = await acpCall(p, 'POST', `/acp/${f.appId}/checkout_sessions/${created.body.id}/complete`, { token: acpKey, body: { payment_data: OK } });
    expect(done.status, done.text).toBe(200);
    return { orderId: done.body.order.id, sessionId: created.body.id };
  }

  beforeAll(async () => {
    const { devWebhookListeners } = localPlatformOptions({ PLATFORM_DEV_WEBHOOKS: '1' });
    expect(devWebhookListeners).toBe(true);
    p = await startTestPlatform({ devWebhookListeners });
    f = await p.fixture();
    acpKey = (await p.admin('POST', `/apps/${f.appId}/acp-keys`, {})).body.data.key;
    mug = (await p.admin('POST', `/apps/${f.appId}/products`, { title: 'Mug', price: 1800, currency: 'usd', inventory: 20 })).body.data;
  });

  afterAll(async () => {
    await p?.stop();
  });

  it("receives order_create of an order placed through the ACP API, signed with the secret it printed; stopping removes the app's receiver", async () => {
    const listener = await listenForOrderEvents({ baseUrl: p.baseUrl, adminToken: p.adminToken, appId: f.appId, print });
    try {
      expect(listener.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/[\w-]+$/);
      expect(listener.secret).toMatch(/^acpwhsec_/);
      expect(JSON.parse(printed.at(-1)!)).toEqual({
        listening: expect.objectContaining({ appId: f.appId, secret: listener.secret, url: listener.url, stop: expect.stringContaining('Ctrl-C') }),
      });
      const receiver = await receiverOf(p, f.appId);
      expect(receiver.status, receiver.text).toBe(200);
      expect(receiver.body.data.url).toBe(listener.url);

      const { orderId, sessionId } = await placeOrder();
      await waitFor(() => listener.events.length === 1, 15_000, 'order_create at the listener');
      const [e] = listener.events;
      expect(e).toMatchObject({ type: 'order_create', requestId: `${orderId}.1`, signatureVerified: true, answered: 200 });
      // Verified again, independently of the listener's own check, on the exact bytes it received.
      expect(independentlyVerified(listener.secret, e!.body, e!.headers['merchant-signature'])).toBe(true);
      expect(independentlyVerified(`${listener.secret}x`, e!.body, e!.headers['merchant-signature'])).toBe(false);

      // One JSON object per line, as a log shipper or `jq -c` reads it.
      expect(printed.filter((t) => t.includes('\n'))).toEqual([]);
      const out = JSON.parse(printed.at(-1)!) as { delivery: Record<string, any> };
      expect(out.delivery).toMatchObject({
        type: 'order_create',
        requestId: `${orderId}.1`,
        answered: 200,
        body: { type: 'order_create', data: { type: 'order', checkout_session_id: sessionId } },
      });
      expect(out.delivery.signature).toMatch(/^verified \(Merchant-Signature t=<unix>,v1=<hex>: t within 300 s/);
      expect(out.delivery.headers['merchant-signature']).toBe(e!.headers['merchant-signature']);
      expect(out.delivery.headers['request-id']).toBe(`${orderId}.1`);

      const log = await p.admin('GET', `/apps/${f.appId}/orders/${orderId}/events`);
      expect(log.body.data).toMatchObject({ deliveredThrough: 1, pending: [] });

      // The exception is not reachable through the public route, not even for the listener's own URL.
      expect((await setReceiver(p, f.appId, listener.url)).status).toBe(400);
      expect((await setReceiver(p, f.appId, 'https://127.0.0.1:8443/orders')).status).toBe(400);
      expect((await receiverOf(p, f.appId)).body.data.url).toBe(listener.url);
    } finally {
      await listener.stop();
    }
    expect((await receiverOf(p, f.appId)).status).toBe(404);
    // The exceptions never reach the public routes' deps.
    expect(p.deps.webhookExceptions).toEqual([]);
  });

  it('with --forward-to passes the exact body and headers on and answers with the forward status', async () => {
    const app = await startForwardTarget(202);
    const { forwarded } = app;
    const forwardTo = app.url('/orders');
    const listener = await listenForOrderEvents({ baseUrl: p.baseUrl, adminToken: p.adminToken, appId: f.appId, forwardTo, print });
    try {
      const { orderId } = await placeOrder();
      await waitFor(() => listener.events.length === 1 && forwarded.length === 1, 15_000, 'the forwarded event');
      const [e] = listener.events;
      expect(e).toMatchObject({ type: 'order_create', signatureVerified: true, answered: 202, forward: { url: forwardTo, status: 202 } });
      expect(forwarded[0]!.body.equals(e!.body)).toBe(true);
      for (const h of ['merchant-signature', 'request-id', 'timestamp', 'content-type', 'user-agent']) expect(forwarded[0]!.headers[h], h).toBe(e!.headers[h]);
      // The platform saw the forward's status as the receiver's answer.
      await waitFor(
        async () => (await p.admin('GET', `/apps/${f.appId}/orders/${orderId}/events`)).body.data.deliveredThrough === 1,
        5_000,
        'the delivery log',
      );
      const log = await p.admin('GET', `/apps/${f.appId}/orders/${orderId}/events`);
      expect(log.body.data.attempts).toEqual([expect.objectContaining({ outcome: 'delivered', httpStatus: 202 })]);
    } finally {
      await listener.stop();
      await app.close();
    }
  });

  it("lets the app's newest listener take over: stopping an older one leaves the newer receiver in place", async () => {
    const first = await listenForOrderEvents({ baseUrl: p.baseUrl, adminToken: p.adminToken, appId: f.appId, print });
    const second = await listenForOrderEvents({ baseUrl: p.baseUrl, adminToken: p.adminToken, appId: f.appId, print });
    try {
      expect((await receiverOf(p, f.appId)).body.data.url).toBe(second.url);
      await first.stop();
      expect((await receiverOf(p, f.appId)).body.data.url).toBe(second.url);
      await placeOrder();
      await waitFor(() => second.events.length === 1, 15_000, 'the event at the newer listener');
      expect(second.events[0]).toMatchObject({ type: 'order_create', signatureVerified: true });
      expect(first.events).toEqual([]);
    } finally {
      await second.stop();
    }
    expect((await receiverOf(p, f.appId)).status).toBe(404);
  });

  it('refuses a listener for an app that does not exist', async () => {
    const attempt = listenForOrderEvents({ baseUrl: p.baseUrl, adminToken: p.adminToken, appId: '00000000-0000-4000-8000-000000000000', print });
    await expect(attempt).rejects.toBeInstanceOf(ListenRefused);
    await expect(attempt).rejects.toThrow('404 unknown_app');
  });

  it("Ctrl-C stops `npm run admin -- order-webhook listen`, removes the app's order webhook and exits 0", async () => {
    const child = await spawnListen(p, ['order-webhook', 'listen', '--app', f.appId]);
    expect((await receiverOf(p, f.appId)).body.data.url).toBe(child.listening.url);
    const { code, stdout } = await child.interrupt();
    expect(code).toBe(0);
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ stopped: { appId: f.appId, removed: true } });
    expect((await receiverOf(p, f.appId)).status).toBe(404);
  });
});

describe('without the switch', () => {
  let p: TestPlatform;
  usePlatform({}, (started) => (p = started));

  it('refuses the listener, telling the user to restart with PLATFORM_DEV_WEBHOOKS=1; a loopback receiver is still 400', async () => {
    expect(localPlatformOptions({})).not.toHaveProperty('devWebhookListeners');
    const f = await p.fixture();
    const attempt = listenForOrderEvents({ baseUrl: p.baseUrl, adminToken: p.adminToken, appId: f.appId, print });
    await expect(attempt).rejects.toBeInstanceOf(ListenRefused);
    await expect(attempt).rejects.toThrow('PLATFORM_DEV_WEBHOOKS=1 npm start');
    expect((await receiverOf(p, f.appId)).status).toBe(404);
    expect((await setReceiver(p, f.appId, 'https://127.0.0.1:8443/orders')).status).toBe(400);
    expect((await setReceiver(p, f.appId, 'https://localhost:8443/orders')).status).toBe(400);
  });
});
