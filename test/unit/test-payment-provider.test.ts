/**
 * The built-in test payment handler: its charges by test token, and its refunds (a charge it made is
 * refunded, any other reference fails), each answered once per idempotency key, with the refunds it
 * made readable for tests.
 */
import { describe, expect, it } from 'vitest';
import { TEST_TOKENS, TestPaymentProvider } from '../../functions/acp/adapters/test-payment-provider';

const card = (token: string) => ({ handler_id: 'platform_test_card', instrument: { type: 'card', credential: { type: 'spt', token } } });

describe('TestPaymentProvider', () => {
  const charged = async (provider: TestPaymentProvider, key: string) => {
    const outcome = await provider.charge({ sessionId: 'cs-1', idempotencyKey: key, amount: 3600, currency: 'usd', paymentData: card(TEST_TOKENS.ok) });
    if (outcome.status !== 'succeeded') throw new Error(`not charged: ${outcome.status}`);
    return outcome.reference;
  };
  const refund = (provider: TestPaymentProvider, chargeReference: string, idempotencyKey: string, amount = 1200) =>
    provider.refund({ sessionId: 'cs-1', orderId: 'ord-1', chargeReference, idempotencyKey, amount, currency: 'usd' });

  it('charges the ok token and declines the others, once per idempotency key', async () => {
    const provider = new TestPaymentProvider();
    expect(await charged(provider, 'acp-complete-cs-1:2')).toMatch(/^test_charge_/);
    const declined = { sessionId: 'cs-2', idempotencyKey: 'acp-complete-cs-2:2', amount: 1, currency: 'usd', paymentData: card(TEST_TOKENS.declined) };
    expect(await provider.charge(declined)).toEqual({ status: 'declined', message: 'The card was declined' });
    // The same key answers the first outcome, whatever the retry carries.
    expect(await provider.charge({ ...declined, paymentData: card(TEST_TOKENS.ok) })).toMatchObject({ status: 'declined' });
  });

  it('refunds a charge it made, and records the refund', async () => {
    const provider = new TestPaymentProvider();
    const charge = await charged(provider, 'acp-complete-cs-1:2');
    const outcome = await refund(provider, charge, 'refund-1');
    expect(outcome).toEqual({ status: 'succeeded', reference: expect.stringMatching(/^test_refund_/) });
    expect(provider.refunds()).toEqual([
      { chargeReference: charge, amount: 1200, currency: 'usd', idempotencyKey: 'refund-1', reference: (outcome as { reference: string }).reference },
    ]);
  });

  it('answers a retried refund with its first outcome, refunding once', async () => {
    const provider = new TestPaymentProvider();
    const charge = await charged(provider, 'acp-complete-cs-1:2');
    const first = await refund(provider, charge, 'refund-1');
    expect(await refund(provider, charge, 'refund-1')).toEqual(first);
    expect(await refund(provider, charge, 'refund-1', 99)).toEqual(first);
    expect(provider.refunds()).toHaveLength(1);
  });

  it('keeps the refunds in order, each with its own reference', async () => {
    const provider = new TestPaymentProvider();
    const a = await charged(provider, 'acp-complete-cs-a:2');
    const b = await charged(provider, 'acp-complete-cs-b:2');
    const r1 = await refund(provider, a, 'refund-a1', 100);
    const r2 = await refund(provider, b, 'refund-b1', 200);
    const r3 = await refund(provider, a, 'refund-a2', 300);
    const references = [r1, r2, r3].map((r) => (r as { reference: string }).reference);
    expect(new Set(references).size).toBe(3);
    expect(provider.refunds().map((r) => [r.chargeReference, r.amount, r.idempotencyKey, r.reference])).toEqual([
      [a, 100, 'refund-a1', references[0]],
      [b, 200, 'refund-b1', references[1]],
      [a, 300, 'refund-a2', references[2]],
    ]);
  });

  it('fails the refund of a reference it did not issue, recording nothing, and keeps that answer for the key', async () => {
    const provider = new TestPaymentProvider();
    const outcome = await refund(provider, 'pi_123', 'refund-x');
    expect(outcome).toEqual({ status: 'failed', message: expect.stringContaining('pi_123') });
    expect(await refund(provider, 'test_charge_late', 'refund-x')).toEqual(outcome);
    expect(provider.refunds()).toEqual([]);
  });

  it('hands out a copy of its record', async () => {
    const provider = new TestPaymentProvider();
    await refund(provider, await charged(provider, 'acp-complete-cs-1:2'), 'refund-1');
    (provider.refunds() as unknown[]).length = 0;
    expect(provider.refunds()).toHaveLength(1);
  });
});
