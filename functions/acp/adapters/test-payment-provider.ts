/**
 * The built-in test payment handler (locally, and on any stage without a payment provider configured):
 * the shared payment token `spt_test_ok` succeeds, `spt_test_declined` is declined the way ACP describes
 * a decline; any other token is declined too. No money moves. Like a real provider it remembers each
 * idempotency key's outcome (for the life of the process), so a retried charge is answered, not repeated.
 */
import { TEST_PAYMENT_HANDLER_ID } from '../domain/checkout';
import type { PaymentHandler } from '../domain/payment-data';
import { ACP_VERSION } from '../domain/discovery';
import type { ChargeRequest, PaymentProvider, PaymentOutcome } from '../ports/acp-ports';
import { sharedPaymentToken } from './stripe-payment-provider';

export const TEST_TOKENS = { ok: 'spt_test_ok', declined: 'spt_test_declined' } as const;

const HANDLER: PaymentHandler = {
  id: TEST_PAYMENT_HANDLER_ID,
  name: 'dev.acp.tokenized.card',
  display_name: 'Test card (no money moves)',
  version: ACP_VERSION,
  spec: 'https://github.com/agentic-commerce-protocol/agentic-commerce-protocol',
  requires_delegate_payment: false,
  requires_pci_compliance: false,
  psp: 'platform-test',
  config_schema: 'https://github.com/agentic-commerce-protocol/agentic-commerce-protocol',
  instrument_schemas: ['https://github.com/agentic-commerce-protocol/agentic-commerce-protocol'],
  config: { test_tokens: [TEST_TOKENS.ok, TEST_TOKENS.declined] },
  instrumentTypes: ['card'],
  credentialTypes: ['spt'],
};

/** Idempotency keys remembered at most (oldest forgotten first), so a long-running local process stays bounded. */
const REMEMBERED_KEYS = 10_000;

export class TestPaymentProvider implements PaymentProvider {
  private readonly outcomes = new Map<string, PaymentOutcome>();

  handlers(): readonly PaymentHandler[] {
    return [HANDLER];
  }

  async charge(input: ChargeRequest): Promise<PaymentOutcome> {
    const known = this.outcomes.get(input.idempotencyKey);
    if (known) return known;
    const token = sharedPaymentToken(input.paymentData);
    const outcome: PaymentOutcome =
      token === TEST_TOKENS.ok
        ? { status: 'succeeded', reference: `test_charge_${input.idempotencyKey.replace(/^acp-complete-/, '').slice(0, 40)}` }
        : { status: 'declined', message: token === TEST_TOKENS.declined ? 'The card was declined' : 'The payment token was not accepted' };
    if (this.outcomes.size >= REMEMBERED_KEYS) this.outcomes.delete(this.outcomes.keys().next().value!);
    this.outcomes.set(input.idempotencyKey, outcome);
    return outcome;
  }
}
