/**
 * The ACP order lifecycle over HTTP against the local platform, with the agent platform's receiver a
 * real HTTPS server on loopback (test CA, test-only SSRF exception): an order placed, shipped, partly
 * refunded with a unit that came back, then canceled. The receiver gets `order_create` and three
 * `order_update` events, in order, each signed with `Merchant-Signature` (checked here with an HMAC of
 * the test's own over the exact bytes received), each valid against the Agentic Checkout Webhooks API's
 * `WebhookEvent` (the data an official `Order`); the stock and the refunds sent to the payment handler
 * match the order's adjustments.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestPaymentProvider } from '../../functions/acp/adapters/test-payment-provider';
import { acpCall } from '../support/acp-client';
import { expectAcp } from '../support/acp-schemas';
import { FakeResolver } from '../support/fake-resolver';
import { startTestPlatform, type Fixture, type TestPlatform } from '../support/platform';
import { RECEIVER_HOST, WebhookReceiver, waitFor } from '../support/webhook-receiver';

const OK = { handler_id: 'platform_test_card', instrument: { type: 'card', credential: { type: 'spt', token: 'spt_test_ok' } } };
const SECRET = 'agent-platform-issued-secret-0123456789abcdef';

/** The webhooks API's check, written here from its text: `t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, t within 300 s. */
function independentlyVerified(secret: string, raw: Buffer, header: string | undefined): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!m) return false;
  if (Math.abs(Date.now() / 1000 - Number(m[1])) > 300) return false;
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(Buffer.concat([Buffer.from(`${m[1]}.`), raw]))
    .digest();
  return timingSafeEqual(mac, Buffer.from(m[2]!, 'hex'));
}

/** The webhooks API's `WebhookEvent`: closed `{type, data}`, data an `Order` with type, checkout_session_id, permalink_url and status. */
function expectWebhookEvent(event: Record<string, unknown>): void {
  expect(Object.keys(event).sort()).toEqual(['data', 'type']);
  expect(typeof event.type).toBe('string');
  const data = event.data as Record<string, unknown>;
  for (const field of ['type', 'checkout_session_id', 'permalink_url', 'status']) expect(data, field).toHaveProperty(field);
  expect(data.type).toBe('order');
  expectAcp('Order', data);
}

describe('ACP order events to the agent platform', () => {
  let receiver: WebhookReceiver;
  let p: TestPlatform;
  let f: Fixture;
  let acpKey: string;
  let mug: { id: string };

  const stockOf = async (productId: string) => {
    const res = await p.admin('GET', `/apps/${f.appId}/products`);
    return (res.body.data as { id: string; inventory: number }[]).find((x) => x.id === productId)!.inventory;
  };

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    p = await startTestPlatform({
      resolver: new FakeResolver().set(RECEIVER_HOST, ['127.0.0.1']),
      webhookNetwork: { allowAddresses: ['127.0.0.1'], trustedCaPem: receiver.caPem },
    });
    f = await p.fixture();
    acpKey = (await p.admin('POST', `/apps/${f.appId}/acp-keys`, {})).body.data.key;
    mug = (await p.admin('POST', `/apps/${f.appId}/products`, { title: 'Mug', price: 1800, currency: 'usd', inventory: 10 })).body.data;
  });

  afterAll(async () => {
    await p?.stop();
    await receiver?.stop();
  });

  it('placed, shipped, partly refunded and canceled: order_create and three order_update events, in order, signed and schema-valid; stock and refunds match', async () => {
    const set = await p.admin('PUT', `/apps/${f.appId}/acp/order-webhook`, { url: receiver.url('/orders'), secret: SECRET });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data).not.toHaveProperty('secret');

    // Placed: two mugs.
    const created = await acpCall(p, 'POST', `/acp/${f.appId}/checkout_sessions`, {
      token: acpKey,
      body: { line_items: [{ product_id: mug.id, quantity: 2 }] },
    });
    expect(created.status, created.text).toBe(201);
    const done = await acpCall(p, 'POST', `/acp/${f.appId}/checkout_sessions/${created.body.id}/complete`, { token: acpKey, body: { payment_data: OK } });
    expect(done.status, done.text).toBe(200);
    expectAcp('CheckoutSessionWithOrder', done.body);
    const orderId = done.body.order.id as string;
    const lineId = done.body.order.line_items[0].id as string;
    expect(await stockOf(mug.id)).toBe(8);

    // Shipped, with tracking.
    const shipped = await p.admin('POST', `/apps/${f.appId}/orders/${orderId}/fulfillments`, {
      type: 'shipping',
      carrier: 'UPS',
      trackingNumber: '1Z999AA10123456784',
      trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
    });
    expect(shipped.status, shipped.text).toBe(200);
    expect(shipped.body.data.status).toBe('shipped');

    // Partly refunded: one mug came back, 1800 refunded.
    const refunded = await p.admin('POST', `/apps/${f.appId}/orders/${orderId}/refunds`, { amount: 1800, lines: [{ lineId, quantity: 1 }], reason: 'Chipped' });
    expect(refunded.status, refunded.text).toBe(200);
    expect(refunded.body.data.refunded).toBe(1800);
    expect(await stockOf(mug.id)).toBe(9);

    // Canceled: nothing left to send, the rest of the charge is refunded.
    const canceled = await p.admin('POST', `/apps/${f.appId}/orders/${orderId}/cancel`, { reason: 'Customer request' });
    expect(canceled.status, canceled.text).toBe(200);
    expect(canceled.body.data).toMatchObject({ status: 'canceled', refunded: 3600 });
    expect(await stockOf(mug.id)).toBe(9);

    await waitFor(() => receiver.requests('/orders').length >= 4, 15_000, 'four order events');
    const received = receiver.requests('/orders');
    expect(received).toHaveLength(4);
    const events = received.map((r) => {
      expect(r.headers['content-type']).toBe('application/json');
      expect(independentlyVerified(SECRET, r.body, r.headers['merchant-signature']), r.headers['merchant-signature']).toBe(true);
      expect(independentlyVerified(`${SECRET}x`, r.body, r.headers['merchant-signature'])).toBe(false);
      const event = JSON.parse(r.body.toString('utf8')) as Record<string, unknown>;
      expectWebhookEvent(event);
      return { event, requestId: r.headers['request-id'] };
    });
    expect(events.map((e) => e.event.type)).toEqual(['order_create', 'order_update', 'order_update', 'order_update']);
    expect(events.map((e) => e.requestId)).toEqual([1, 2, 3, 4].map((n) => `${orderId}.${n}`));
    const data = events.map((e) => e.event.data as Record<string, any>);
    expect(data.map((d) => d.status)).toEqual(['confirmed', 'shipped', 'shipped', 'canceled']);
    expect(data[1]!.fulfillments[0]).toMatchObject({ type: 'shipping', status: 'shipped', carrier: 'UPS', tracking_number: '1Z999AA10123456784' });
    expect(data[2]!.line_items[0].quantity).toEqual({ ordered: 2, current: 1, fulfilled: 1 });
    expect(data[2]!.adjustments).toEqual([expect.objectContaining({ type: 'refund', status: 'completed', amount: 1800, currency: 'usd' })]);
    expect(data[3]!.adjustments.map((a: { type: string; amount?: number }) => [a.type, a.amount])).toEqual([
      ['refund', 1800],
      ['refund', 1800],
    ]);
    expect(data[3]!.totals.find((t: { type: string }) => t.type === 'amount_refunded').amount).toBe(3600);

    // The payment handler refunded exactly the adjustments, once each, against the order's charge.
    const detail = await p.admin('GET', `/apps/${f.appId}/orders/${orderId}`);
    expect(detail.status, detail.text).toBe(200);
    const refunds = (p.deps.payments as TestPaymentProvider).refunds().filter((r) => r.chargeReference === detail.body.data.paymentReference);
    expect(refunds.map((r) => r.amount)).toEqual([1800, 1800]);
    expect(new Set(refunds.map((r) => r.idempotencyKey)).size).toBe(2);

    // The delivery log shows the four events delivered, one attempt each.
    const log = await p.admin('GET', `/apps/${f.appId}/orders/${orderId}/events`);
    expect(log.status, log.text).toBe(200);
    expect(log.body.data).toMatchObject({ deliveredThrough: 4, pending: [] });
    expect(log.body.data.attempts.map((a: { revision: number; outcome: string }) => [a.revision, a.outcome])).toEqual([
      [4, 'delivered'],
      [3, 'delivered'],
      [2, 'delivered'],
      [1, 'delivered'],
    ]);
  });
});
