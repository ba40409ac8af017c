/**
 * The built-in test payment handler (locally, and on any stage without a payment provider configured):
 * the shared payment token `spt_test_ok` succeeds, `spt_test_declined` is declined the way ACP describes
 * a decline; any other token is declined too. No money moves.
 */
import { TEST_PAYMENT_HANDLER_ID, type PaymentHandlerView } from '../domain/acp/checkout';
import { ACP_VERSION } from '../domain/acp/discovery';
import type { PaymentGateway, PaymentOutcome } from '../ports/acp';

export const TEST_TOKENS = { ok: 'spt_test_ok', declined: 'spt_test_declined' } as const;

const HANDLER: PaymentHandlerView = {
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
};

export class TestPaymentGateway implements PaymentGateway {
  handlers(): readonly PaymentHandlerView[] {
    return [HANDLER];
  }

  async charge(input: { sessionId: string; amount: number; currency: string; paymentData: Record<string, unknown> }): Promise<PaymentOutcome> {
    const instrument = input.paymentData.instrument as { credential?: { token?: unknown } } | undefined;
    const token = instrument?.credential?.token ?? input.paymentData.token;
    if (token === TEST_TOKENS.ok) return { status: 'succeeded', reference: `test_charge_${input.sessionId.slice(0, 8)}` };
    return { status: 'declined', message: token === TEST_TOKENS.declined ? 'The card was declined' : 'The payment token was not accepted' };
  }
}
