/**
 * The Stripe shared-payment-token adapter against a fake Stripe on loopback: the exact request it sends
 * (path, headers, form body, idempotency key), success, a 402 decline, and the failures it must not
 * mistake for either; the same for its refunds.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STRIPE_API_VERSION, STRIPE_KEY_PLACEHOLDER, StripePaymentProvider } from '../../functions/acp/adapters/stripe-payment-provider';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

describe('StripePaymentProvider', () => {
  let server: Server;
  let baseUrl: string;
  const seen: Seen[] = [];
  let answer: { status: number; body: unknown } = { status: 200, body: {} };
  /** How long the fake Stripe waits before it answers. */
  let delayMs = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        const { status, body: json } = answer;
        setTimeout(() => {
          if (!res.destroyed) res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(json));
        }, delayMs);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => {
    seen.length = 0;
    delayMs = 0;
  });

  const gateway = () => new StripePaymentProvider({ apiKey: 'rk_test_123', baseUrl });
  const paymentData = { handler_id: 'stripe_spt', instrument: { type: 'card', credential: { type: 'spt', token: 'spt_1AbC' } } };

  it('confirms one PaymentIntent with the shared payment token, keyed by the checkout session', async () => {
    answer = { status: 200, body: { id: 'pi_123', object: 'payment_intent', status: 'succeeded' } };
    expect(await gateway().charge({ sessionId: 'cs-1', idempotencyKey: 'acp-complete-cs-1:2', amount: 3600, currency: 'usd', paymentData })).toEqual({
      status: 'succeeded',
      reference: 'pi_123',
    });
    expect(seen).toHaveLength(1);
    const [req] = seen;
    expect(req!.method).toBe('POST');
    expect(req!.url).toBe('/v1/payment_intents');
    expect(req!.headers.authorization).toBe('Bearer rk_test_123');
    expect(req!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req!.headers['stripe-version']).toBe(STRIPE_API_VERSION);
    expect(req!.headers['idempotency-key']).toBe('acp-complete-cs-1:2');
    expect(Object.fromEntries(new URLSearchParams(req!.body))).toEqual({
      amount: '3600',
      currency: 'usd',
      confirm: 'true',
      'payment_method_data[shared_payment_granted_token]': 'spt_1AbC',
      'metadata[checkout_session_id]': 'cs-1',
    });
  });

  it('accepts the 2025-09-29 payment_data shape { token }', async () => {
    answer = { status: 200, body: { id: 'pi_9', status: 'succeeded' } };
    await gateway().charge({
      sessionId: 'cs-2',
      idempotencyKey: 'acp-complete-cs-2:2',
      amount: 1,
      currency: 'usd',
      paymentData: { token: 'spt_old', provider: 'stripe' },
    });
    expect(new URLSearchParams(seen[0]!.body).get('payment_method_data[shared_payment_granted_token]')).toBe('spt_old');
  });

  it('reads a 402 card_error as a decline', async () => {
    answer = {
      status: 402,
      body: {
        error: {
          type: 'card_error',
          code: 'card_declined',
          message: 'Your card was declined.',
          payment_intent: { id: 'pi_x', status: 'requires_payment_method' },
        },
      },
    };
    expect(await gateway().charge({ sessionId: 'cs-3', idempotencyKey: 'acp-complete-cs-3:2', amount: 100, currency: 'usd', paymentData })).toEqual({
      status: 'declined',
      message: 'Your card was declined.',
    });
  });

  it('declines without calling Stripe when there is no token', async () => {
    expect(
      await gateway().charge({
        sessionId: 'cs-4',
        idempotencyKey: 'acp-complete-cs-4:2',
        amount: 100,
        currency: 'usd',
        paymentData: { handler_id: 'stripe_spt' },
      }),
    ).toMatchObject({ status: 'declined' });
    expect(seen).toHaveLength(0);
  });

  it('reads other refusals as failed (nothing charged) and throws when the outcome is unknown', async () => {
    const charge = () => gateway().charge({ sessionId: 'cs-5', idempotencyKey: 'acp-complete-cs-5:2', amount: 100, currency: 'usd', paymentData });
    answer = { status: 200, body: { id: 'pi_y', status: 'requires_action' } };
    expect(await charge()).toEqual({ status: 'failed', message: 'Stripe answered 200 with status requires_action' });
    answer = { status: 401, body: { error: { type: 'invalid_request_error', code: 'api_key_expired' } } };
    expect(await charge()).toEqual({ status: 'failed', message: 'Stripe answered 401 (api_key_expired)' });
    answer = { status: 400, body: { error: { type: 'invalid_request_error', code: 'parameter_invalid_integer' } } };
    expect(await charge()).toMatchObject({ status: 'failed' });
    answer = { status: 200, body: { id: 'pi_z', status: 'processing' } };
    await expect(charge()).rejects.toThrow(/processing/);
    answer = { status: 500, body: { error: { type: 'api_error' } } };
    await expect(charge()).rejects.toThrow(/500/);
    answer = { status: 409, body: { error: { type: 'idempotency_error' } } };
    await expect(charge()).rejects.toThrow(/409/);
    answer = { status: 429, body: { error: { type: 'rate_limit_error' } } };
    await expect(charge()).rejects.toThrow(/429/);
  });

  it('refuses to charge with the placeholder of an unconfigured stage, sending nothing', async () => {
    const unconfigured = new StripePaymentProvider({ baseUrl, apiKey: async () => STRIPE_KEY_PLACEHOLDER });
    expect(await unconfigured.charge({ sessionId: 'cs-7', idempotencyKey: 'k', amount: 100, currency: 'usd', paymentData })).toEqual({
      status: 'failed',
      message: 'no Stripe API key is configured for this stage',
    });
    expect(seen).toHaveLength(0);
  });

  it('reads the API key once, on the first charge, and again only after a failed read', async () => {
    let reads = 0;
    let fail = true;
    const lazy = new StripePaymentProvider({
      baseUrl,
      apiKey: async () => {
        reads++;
        if (fail) throw new Error('secrets manager is down');
        return 'rk_test_fromsecret';
      },
    });
    expect(reads).toBe(0);
    answer = { status: 200, body: { id: 'pi_1', status: 'succeeded' } };
    const charge = () => lazy.charge({ sessionId: 'cs-6', idempotencyKey: 'acp-complete-cs-6:2', amount: 100, currency: 'usd', paymentData });
    await expect(charge()).rejects.toThrow(/down/);
    fail = false;
    await charge();
    await charge();
    expect(reads).toBe(2);
    expect(seen.map((r) => r.headers.authorization)).toEqual(['Bearer rk_test_fromsecret', 'Bearer rk_test_fromsecret']);
  });
  describe('refund', () => {
    const refundOf = (provider = gateway()) =>
      provider.refund({
        sessionId: 'cs-r',
        orderId: 'ord-r',
        chargeReference: 'pi_123',
        idempotencyKey: 'acp-refund-cs-r:adj-1',
        amount: 1200,
        currency: 'usd',
      });

    it('creates one Refund of the PaymentIntent, keyed by the adjustment, with the charge headers', async () => {
      answer = { status: 200, body: { id: 're_123', object: 'refund', amount: 1200, payment_intent: 'pi_123', status: 'succeeded' } };
      expect(await refundOf()).toEqual({ status: 'succeeded', reference: 're_123' });
      expect(seen).toHaveLength(1);
      const [req] = seen;
      expect(req!.method).toBe('POST');
      expect(req!.url).toBe('/v1/refunds');
      expect(req!.headers.authorization).toBe('Bearer rk_test_123');
      expect(req!.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(req!.headers['stripe-version']).toBe(STRIPE_API_VERSION);
      expect(req!.headers['idempotency-key']).toBe('acp-refund-cs-r:adj-1');
      expect(Object.fromEntries(new URLSearchParams(req!.body))).toEqual({
        payment_intent: 'pi_123',
        amount: '1200',
        'metadata[checkout_session_id]': 'cs-r',
        'metadata[order_id]': 'ord-r',
      });
    });

    it('counts a refund Stripe accepted and will finish (pending, requires_action) as succeeded, with its id', async () => {
      answer = { status: 200, body: { id: 're_p', object: 'refund', status: 'pending' } };
      expect(await refundOf()).toEqual({ status: 'succeeded', reference: 're_p' });
      answer = { status: 200, body: { id: 're_a', object: 'refund', status: 'requires_action' } };
      expect(await refundOf()).toEqual({ status: 'succeeded', reference: 're_a' });
    });

    it("reads a refusal as failed (nothing refunded), naming the status and Stripe's code", async () => {
      answer = {
        status: 400,
        body: { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: 'Charge ch_1 has already been refunded.' } },
      };
      expect(await refundOf()).toEqual({ status: 'failed', message: 'Stripe answered 400 (charge_already_refunded)' });
      answer = { status: 400, body: { error: { type: 'invalid_request_error', code: 'amount_too_large' } } };
      expect(await refundOf()).toEqual({ status: 'failed', message: 'Stripe answered 400 (amount_too_large)' });
      answer = { status: 402, body: { error: { type: 'invalid_request_error', code: 'insufficient_funds' } } };
      expect(await refundOf()).toEqual({ status: 'failed', message: 'Stripe answered 402 (insufficient_funds)' });
      answer = { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing' } } };
      expect(await refundOf()).toEqual({ status: 'failed', message: 'Stripe answered 404 (resource_missing)' });
      answer = { status: 401, body: { error: { type: 'invalid_request_error', code: 'api_key_expired' } } };
      expect(await refundOf()).toEqual({ status: 'failed', message: 'Stripe answered 401 (api_key_expired)' });
      answer = { status: 200, body: { id: 're_f', object: 'refund', status: 'failed', failure_reason: 'expired_or_canceled_card' } };
      expect(await refundOf()).toEqual({ status: 'failed', message: 'Stripe answered 200 with status failed (expired_or_canceled_card)' });
      answer = { status: 200, body: { id: 're_c', object: 'refund', status: 'canceled' } };
      expect(await refundOf()).toEqual({ status: 'failed', message: 'Stripe answered 200 with status canceled' });
    });

    it('throws when the outcome is unknown (409, 429, 5xx, an answer it cannot read), so the refund is retried under the same key', async () => {
      answer = { status: 409, body: { error: { type: 'idempotency_error' } } };
      await expect(refundOf()).rejects.toThrow(/409/);
      answer = { status: 429, body: { error: { type: 'rate_limit_error', code: 'rate_limit' } } };
      await expect(refundOf()).rejects.toThrow(/429 \(rate_limit\)/);
      answer = { status: 500, body: { error: { type: 'api_error' } } };
      await expect(refundOf()).rejects.toThrow(/500/);
      answer = { status: 503, body: 'unavailable' };
      await expect(refundOf()).rejects.toThrow(/503/);
      answer = { status: 200, body: { object: 'refund', status: 'succeeded' } };
      await expect(refundOf()).rejects.toThrow(/200 with status succeeded/);
      answer = { status: 200, body: { id: 're_x', object: 'refund', status: 'mystery' } };
      await expect(refundOf()).rejects.toThrow(/mystery/);
      expect(seen.map((r) => r.headers['idempotency-key'])).toEqual(Array(6).fill('acp-refund-cs-r:adj-1'));
    });

    it('throws on a timeout and on a network error', async () => {
      answer = { status: 200, body: { id: 're_late', status: 'succeeded' } };
      delayMs = 500;
      await expect(refundOf(new StripePaymentProvider({ apiKey: 'rk_test_123', baseUrl, timeoutMs: 50 }))).rejects.toThrow(/timeout|aborted/i);
      expect(seen).toHaveLength(1);
      const closed = createServer();
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((r) => closed.close(() => r()));
      await expect(refundOf(new StripePaymentProvider({ apiKey: 'rk_test_123', baseUrl: `http://127.0.0.1:${port}` }))).rejects.toThrow();
    });

    it('refuses to refund with the placeholder of an unconfigured stage, sending nothing', async () => {
      const unconfigured = new StripePaymentProvider({ baseUrl, apiKey: async () => STRIPE_KEY_PLACEHOLDER });
      expect(await refundOf(unconfigured)).toEqual({ status: 'failed', message: 'no Stripe API key is configured for this stage' });
      expect(await refundOf(new StripePaymentProvider({ baseUrl, apiKey: '' }))).toMatchObject({ status: 'failed' });
      expect(seen).toHaveLength(0);
    });
  });
});
