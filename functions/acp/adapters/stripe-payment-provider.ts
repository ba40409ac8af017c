/**
 * Payments through Stripe with the agent's Shared Payment Token (ACP's delegated payment): one
 * PaymentIntent per complete, confirmed at once with `payment_method_data[shared_payment_granted_token]`,
 * and Refunds of it (`POST /v1/refunds` naming the PaymentIntent). The complete attempt's key (session
 * and claim), or the refund's, is the Stripe idempotency key, so a retried call never charges or
 * refunds twice. Charge outcomes:
 * - 200 `succeeded`: the sale;
 * - 402 `card_error`: a decline;
 * - another 4xx but 409 and 429 (an invalid request, a bad or expired key), or a PaymentIntent that
 *   needs an action the agent cannot take: `failed`, nothing was charged;
 * - a timeout, a network error, a 5xx, a 409 (the same key still running), a 429, or `processing`:
 *   unknown, so it throws and the complete is retried later under the same key.
 * Refund outcomes:
 * - 200 `succeeded`, `pending` or `requires_action`: Stripe holds the refund (its id is the reference)
 *   and finishes it without us (see `refund`);
 * - 200 `failed` or `canceled`, or a 4xx but 409 and 429 (`charge_already_refunded`, `amount_too_large`,
 *   an unknown PaymentIntent, a bad key): `failed`, nothing was refunded;
 * - a timeout, a network error, a 5xx, a 409, a 429, or a 200 without a refund id or with another
 *   status: unknown, so it throws and the refund is retried later under the same key.
 * A stage without a real API key answers `failed` to both, sending nothing.
 */
import type { PaymentHandler } from '../domain/payment-data';
import { ACP_VERSION } from '../domain/discovery';
import { PAYMENT_SECRET_PLACEHOLDER } from '../../kernel/env';
import type { ChargeRequest, PaymentProvider, PaymentOutcome, RefundOutcome, RefundRequest } from '../app/acp-ports';

export { PAYMENT_SECRET_PLACEHOLDER as STRIPE_KEY_PLACEHOLDER };

export interface StripeConfig {
  /** The restricted or secret API key, or where to get it (Secrets Manager on AWS, read on the first call). */
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
    // Fetched once; a failed fetch is forgotten so the next call tries again.
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
    const { res, body } = await this.post('/v1/payment_intents', apiKey, input.idempotencyKey, form);
    if (res.ok && body.status === 'succeeded' && body.id) return { status: 'succeeded', reference: body.id };
    if (res.status === 402 && body.error?.type === 'card_error') return { status: 'declined', message: body.error.message ?? 'The card was declined' };
    const definite = (res.ok && body.status !== 'processing') || (res.status >= 400 && res.status < 500 && res.status !== 409 && res.status !== 429);
    if (definite) return { status: 'failed', message: answered(res, body) };
    throw new Error(answered(res, body));
  }

  /**
   * Refunds `amount` of the charge's PaymentIntent. A `pending` refund is accepted by Stripe and will
   * complete (card refunds usually start pending): it counts as succeeded, with its id. A
   * `requires_action` refund (a payment method whose refund needs the buyer's bank details: Stripe
   * emails the buyer) is accepted too: the action is the buyer's, not ours, so retrying would only
   * replay the same answer, and `failed` would invite a second refund of money that may still go
   * out. `failed` and `canceled` refunded nothing.
   */
  async refund(input: RefundRequest): Promise<RefundOutcome> {
    const apiKey = await this.key();
    if (!STRIPE_KEY.test(apiKey)) return { status: 'failed', message: 'no Stripe API key is configured for this stage' };
    const form = new URLSearchParams({
      payment_intent: input.chargeReference,
      amount: String(input.amount),
      'metadata[checkout_session_id]': input.sessionId,
      'metadata[order_id]': input.orderId,
    });
    const { res, body } = await this.post('/v1/refunds', apiKey, input.idempotencyKey, form);
    if (res.ok && body.id && (body.status === 'succeeded' || body.status === 'pending' || body.status === 'requires_action'))
      return { status: 'succeeded', reference: body.id };
    const definite =
      (res.ok && (body.status === 'failed' || body.status === 'canceled')) ||
      (res.status >= 400 && res.status < 500 && res.status !== 409 && res.status !== 429);
    if (definite) return { status: 'failed', message: answered(res, body) };
    throw new Error(answered(res, body));
  }

  /** One form POST to Stripe under the idempotency key; a timeout or a network error rejects. */
  private async post(path: string, apiKey: string, idempotencyKey: string, form: URLSearchParams): Promise<{ res: Response; body: StripeAnswer }> {
    const res = await fetch(`${this.config.baseUrl ?? 'https://api.stripe.com'}${path}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${apiKey}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        'Stripe-Version': this.config.apiVersion ?? STRIPE_API_VERSION,
        'Idempotency-Key': idempotencyKey,
      },
      body: form.toString(),
      signal: AbortSignal.timeout(this.config.timeoutMs ?? 20_000),
    });
    const body = (await res.json().catch(() => ({}))) as StripeAnswer;
    return { res, body };
  }
}

/** What the adapter reads of a Stripe answer (a PaymentIntent, a Refund, or an error). */
interface StripeAnswer {
  id?: string;
  status?: string;
  failure_reason?: string;
  error?: { type?: string; code?: string; message?: string; payment_intent?: { id?: string } };
}

/** `Stripe answered 400 (charge_already_refunded)`, `Stripe answered 200 with status requires_action`. */
function answered(res: Response, body: StripeAnswer): string {
  const reason = body.failure_reason ? ` (${body.failure_reason})` : '';
  return `Stripe answered ${res.status}${body.error?.code ? ` (${body.error.code})` : ''}${body.status ? ` with status ${body.status}${reason}` : ''}`;
}
