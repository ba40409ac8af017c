/**
 * The built-in test payment handler (locally, and on any stage without a payment provider configured):
 * the shared payment token `spt_test_ok` succeeds, `spt_test_declined` is declined the way ACP describes
 * a decline; any other token is declined too. A refund of a charge it made (`test_charge_…`) succeeds
 * (`test_refund_…`); of any other reference it fails. No money moves. Like a real provider it remembers
 * each idempotency key's outcome (for the life of the process), so a retried charge or refund is
 * answered, not repeated; the refunds it made can be read back (`refunds()`), for tests.
 */
import { TEST_PAYMENT_HANDLER_ID } from '../domain/checkout';
import type { PaymentHandler } from '../domain/payment-data';
import { ACP_VERSION } from '../domain/discovery';
import type { ChargeRequest, PaymentProvider, PaymentOutcome, RefundOutcome, RefundRequest } from '../app/acp-ports';
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

/** A refund the test handler made (the first answer under its idempotency key). */
export interface TestRefund {
  readonly chargeReference: string;
  readonly amount: number;
  readonly currency: string;
  readonly idempotencyKey: string;
  readonly reference: string;
}

/** Remembers `outcome` under `key`, forgetting the oldest key past REMEMBERED_KEYS. */
function remember<T>(outcomes: Map<string, T>, key: string, outcome: T): void {
  if (outcomes.size >= REMEMBERED_KEYS) outcomes.delete(outcomes.keys().next().value!);
  outcomes.set(key, outcome);
}

export class TestPaymentProvider implements PaymentProvider {
  private readonly outcomes = new Map<string, PaymentOutcome>();
  private readonly refundOutcomes = new Map<string, RefundOutcome>();
  private readonly made: TestRefund[] = [];
  private refundCount = 0;

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
    remember(this.outcomes, input.idempotencyKey, outcome);
    return outcome;
  }

  async refund(input: RefundRequest): Promise<RefundOutcome> {
    const known = this.refundOutcomes.get(input.idempotencyKey);
    if (known) return known;
    let outcome: RefundOutcome;
    if (input.chargeReference.startsWith('test_charge_')) {
      outcome = { status: 'succeeded', reference: `test_refund_${++this.refundCount}` };
      const { chargeReference, amount, currency, idempotencyKey } = input;
      this.made.push({ chargeReference, amount, currency, idempotencyKey, reference: outcome.reference });
      if (this.made.length > REMEMBERED_KEYS) this.made.shift();
    } else outcome = { status: 'failed', message: `No test charge ${input.chargeReference} to refund` };
    remember(this.refundOutcomes, input.idempotencyKey, outcome);
    return outcome;
  }

  /** The refunds made, oldest first (each once, however often it was retried; the last REMEMBERED_KEYS). */
  refunds(): readonly TestRefund[] {
    return [...this.made];
  }
}
