/**
 * Payments through Stripe with the agent's Shared Payment Token (ACP's delegated payment): one
 * PaymentIntent per complete, confirmed at once with `payment_method_data[shared_payment_granted_token]`.
 * The checkout session id is the Stripe idempotency key, so a retried complete never charges twice.
 * A decline is Stripe's 402 `card_error`; anything else that is not a success throws (the complete
 * then releases its stock and answers 5xx, and can be retried).
 */
import type { PaymentHandlerView } from '../domain/acp/checkout';
import { ACP_VERSION } from '../domain/acp/discovery';
import type { PaymentGateway, PaymentOutcome } from '../ports/acp';

export interface StripeConfig {
  /** The restricted or secret API key (from Secrets Manager on AWS). */
  readonly apiKey: string;
  /** @default https://api.stripe.com */
  readonly baseUrl?: string;
  /** The preview API version that carries Shared Payment Tokens. */
  readonly apiVersion?: string;
  readonly timeoutMs?: number;
}

export const STRIPE_HANDLER_ID = 'stripe_spt';
export const STRIPE_API_VERSION = '2026-04-22.preview';

const HANDLER: PaymentHandlerView = {
  id: STRIPE_HANDLER_ID,
  name: 'dev.acp.tokenized.card',
  display_name: 'Card (Stripe shared payment token)',
  version: ACP_VERSION,
  spec: 'https://docs.stripe.com/agentic-commerce',
  requires_delegate_payment: true,
  requires_pci_compliance: false,
  psp: 'stripe',
  config_schema: 'https://docs.stripe.com/agentic-commerce',
  instrument_schemas: ['https://docs.stripe.com/agentic-commerce'],
  config: {},
};

/** The token of an ACP `payment_data` (2026-04-17 `instrument.credential.token`, or the older top-level `token`). */
export function sharedPaymentToken(paymentData: Record<string, unknown>): string | undefined {
  const instrument = paymentData.instrument as { credential?: { token?: unknown } } | undefined;
  const token = instrument?.credential?.token ?? paymentData.token;
  return typeof token === 'string' && token.length > 0 ? token : undefined;
}

export class StripePaymentGateway implements PaymentGateway {
  constructor(private readonly config: StripeConfig) {}

  handlers(): readonly PaymentHandlerView[] {
    return [HANDLER];
  }

  async charge(input: { sessionId: string; amount: number; currency: string; paymentData: Record<string, unknown> }): Promise<PaymentOutcome> {
    const token = sharedPaymentToken(input.paymentData);
    if (!token) return { status: 'declined', message: 'payment_data carries no shared payment token' };
    const form = new URLSearchParams({
      amount: String(input.amount),
      currency: input.currency,
      confirm: 'true',
      'payment_method_data[shared_payment_granted_token]': token,
      'metadata[checkout_session_id]': input.sessionId,
    });
    const res = await fetch(`${this.config.baseUrl ?? 'https://api.stripe.com'}/v1/payment_intents`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${this.config.apiKey}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        'Stripe-Version': this.config.apiVersion ?? STRIPE_API_VERSION,
        'Idempotency-Key': `acp-complete-${input.sessionId}`,
      },
      body: form.toString(),
      signal: AbortSignal.timeout(this.config.timeoutMs ?? 20_000),
    });
    const body = (await res.json().catch(() => ({}))) as { id?: string; status?: string; error?: { type?: string; code?: string; message?: string; payment_intent?: { id?: string } } };
    if (res.ok && body.status === 'succeeded' && body.id) return { status: 'succeeded', reference: body.id };
    if (res.status === 402 && body.error?.type === 'card_error') return { status: 'declined', message: body.error.message ?? 'The card was declined' };
    throw new Error(`Stripe answered ${res.status}${body.error?.code ? ` (${body.error.code})` : ''}${body.status ? ` with status ${body.status}` : ''}`);
  }
}
