/**
 * Payments through Stripe with the agent's Shared Payment Token (ACP's delegated payment): one
 * PaymentIntent per complete, confirmed at once with `payment_method_data[shared_payment_granted_token]`.
 * The complete attempt's key (session and claim) is the Stripe idempotency key, so a retried charge
 * never charges twice. Outcomes:
 * - 200 `succeeded`: the sale;
 * - 402 `card_error`: a decline;
 * - another 4xx but 409 and 429 (an invalid request, a bad or expired key), or a PaymentIntent that
 *   needs an action the agent cannot take: `failed`, nothing was charged;
 * - a timeout, a network error, a 5xx, a 409 (the same key still running), a 429, or `processing`:
 *   unknown, so it throws and the complete is retried later under the same key.
 */
import type { PaymentHandler } from '../domain/payment-data';
import { ACP_VERSION } from '../domain/discovery';
import { PAYMENT_SECRET_PLACEHOLDER } from '../../platform/env';
import type { ChargeRequest, PaymentProvider, PaymentOutcome } from '../ports/acp-ports';

export { PAYMENT_SECRET_PLACEHOLDER as STRIPE_KEY_PLACEHOLDER };

export interface StripeConfig {
  /** The restricted or secret API key, or where to get it (Secrets Manager on AWS, read on the first charge). */
  readonly apiKey: string | (() => Promise<string>);
  /** @default https://api.stripe.com */
  readonly baseUrl?: string;
  /** The preview API version that carries Shared Payment Tokens. */
  readonly apiVersion?: string;
  readonly timeoutMs?: number;
}

export const STRIPE_HANDLER_ID = 'stripe_spt';
const STRIPE_KEY = /^(sk|rk)_(live|test)_[A-Za-z0-9]+$/;
export const STRIPE_API_VERSION = '2026-04-22.preview';

const HANDLER: PaymentHandler = {
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
  instrumentTypes: ['card'],
  credentialTypes: ['spt'],
};

/** The token of an ACP `payment_data` (2026-04-17 `instrument.credential.token`, or the older top-level `token`). */
export function sharedPaymentToken(paymentData: Record<string, unknown>): string | undefined {
  const instrument = paymentData.instrument as { credential?: { token?: unknown } } | undefined;
  const token = instrument?.credential?.token ?? paymentData.token;
  return typeof token === 'string' && token.length > 0 ? token : undefined;
}

export class StripePaymentProvider implements PaymentProvider {
  constructor(private readonly config: StripeConfig) {}

  handlers(): readonly PaymentHandler[] {
    return [HANDLER];
  }

  private apiKey: Promise<string> | undefined;

  private key(): Promise<string> {
    const source = this.config.apiKey;
    if (typeof source === 'string') return Promise.resolve(source);
    // Fetched once; a failed fetch is forgotten so the next charge tries again.
    this.apiKey ??= source().catch((err: unknown) => {
      this.apiKey = undefined;
      throw err;
    });
    return this.apiKey;
  }

  async charge(input: ChargeRequest): Promise<PaymentOutcome> {
    const token = sharedPaymentToken(input.paymentData);
    if (!token) return { status: 'declined', message: 'payment_data carries no shared payment token' };
    const apiKey = await this.key();
    if (!STRIPE_KEY.test(apiKey)) return { status: 'failed', message: 'no Stripe API key is configured for this stage' };
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
        Authorization: `Bearer ${apiKey}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        'Stripe-Version': this.config.apiVersion ?? STRIPE_API_VERSION,
        'Idempotency-Key': input.idempotencyKey,
      },
      body: form.toString(),
      signal: AbortSignal.timeout(this.config.timeoutMs ?? 20_000),
    });
    const body = (await res.json().catch(() => ({}))) as {
      id?: string;
      status?: string;
      error?: { type?: string; code?: string; message?: string; payment_intent?: { id?: string } };
    };
    if (res.ok && body.status === 'succeeded' && body.id) return { status: 'succeeded', reference: body.id };
    if (res.status === 402 && body.error?.type === 'card_error') return { status: 'declined', message: body.error.message ?? 'The card was declined' };
    const definite = (res.ok && body.status !== 'processing') || (res.status >= 400 && res.status < 500 && res.status !== 409 && res.status !== 429);
    if (definite)
      return {
        status: 'failed',
        message: `Stripe answered ${res.status}${body.error?.code ? ` (${body.error.code})` : ''}${body.status ? ` with status ${body.status}` : ''}`,
      };
    throw new Error(`Stripe answered ${res.status}${body.error?.code ? ` (${body.error.code})` : ''}${body.status ? ` with status ${body.status}` : ''}`);
  }
}
