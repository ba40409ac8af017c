/**
 * The Stripe shared-payment-token adapter against a fake Stripe on loopback: the exact request it sends
 * (path, headers, form body, idempotency key), success, a 402 decline, and the failures it must not
 * mistake for either.
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
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => {
    seen.length = 0;
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
});
