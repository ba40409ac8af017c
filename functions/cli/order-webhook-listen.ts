/**
 * `npm run admin -- order-webhook listen --app <appId>`: a local HTTPS receiver of an app's ACP order
 * events (functions/cli/dev-listener.ts). A local platform started with `PLATFORM_DEV_WEBHOOKS=1`
 * (functions/local/dev-webhook-listeners.ts) sets the app's order webhook to it with a secret it makes,
 * and the listener prints every event: its type, `Request-Id`, whether `Merchant-Signature` verifies
 * with that secret, headers and body. It answers 200, or with `--forward-to` passes the exact body and
 * headers on and answers with that status. Stopping it removes the app's order webhook.
 */
import { MERCHANT_SIGNATURE_HEADER, SIGNATURE_TOLERANCE_SECONDS, verifyMerchantSignature } from '../acp/domain/order-event';
import { runListenCommand, startDevListener, type ListenTarget, type ReceivedRequest } from './dev-listener';

export interface OrderListenOptions extends ListenTarget {
  readonly appId: string;
}

export interface ReceivedOrderEvent extends ReceivedRequest {
  /** `order_create` or `order_update`, from the body. */
  readonly type?: string;
  readonly requestId?: string;
  readonly signatureVerified: boolean;
}

export interface RunningOrderListener {
  readonly appId: string;
  readonly secret: string;
  /** The order webhook's URL, as the platform built it. */
  readonly url: string;
  readonly events: readonly ReceivedOrderEvent[];
  /** Removes the app's order webhook (and the platform's exception) and closes the receiver. */
  stop(): Promise<void>;
}

const CHECKED = `${MERCHANT_SIGNATURE_HEADER} t=<unix>,v1=<hex>: t within ${SIGNATURE_TOLERANCE_SECONDS} s of this clock, v1 the HMAC-SHA256 of "<t>.<raw body>" with the secret`;

/** Starts the receiver and makes it the app's order-event receiver; resolves once the platform sends to it. */
export async function listenForOrderEvents(opts: OrderListenOptions): Promise<RunningOrderListener> {
  const listener = await startDevListener<Pick<ReceivedOrderEvent, 'type' | 'requestId' | 'signatureVerified'>>(opts, {
    name: 'platform order-webhook listen',
    registration: { kind: 'acp-orders', appId: opts.appId },
    check: (request, body, secret) => {
      const type = typeof body === 'object' && body !== null ? (body as { type?: unknown }).type : undefined;
      const requestId = request.headers['request-id'];
      const signature = request.headers[MERCHANT_SIGNATURE_HEADER.toLowerCase()];
      const signatureVerified = verifyMerchantSignature(secret, request.body, signature, Math.floor(Date.now() / 1000));
      return {
        fields: { ...(typeof type === 'string' ? { type } : {}), ...(requestId !== undefined ? { requestId } : {}), signatureVerified },
        printed: {
          type: typeof type === 'string' ? type : null,
          requestId: requestId ?? null,
          signature: signatureVerified
            ? `verified (${CHECKED})`
            : `INVALID: ${signature === undefined ? 'no header' : 'the header does not pass'} (${CHECKED})`,
        },
      };
    },
    listening: (r) => ({ appId: opts.appId, secret: r.secret, url: r.url }),
    stop: "Ctrl-C removes the app's order webhook and exits",
  });
  return {
    appId: opts.appId,
    secret: listener.registration.secret,
    url: String(listener.registration.url),
    events: listener.received,
    stop: () => listener.stop(),
  };
}

/** The CLI command: runs until SIGINT (Ctrl-C) or SIGTERM, then removes the app's order webhook; the exit code. */
export function runOrderWebhookListen(flags: Readonly<Record<string, string | undefined>>, target: { baseUrl: string; token?: string }): Promise<number> {
  return runListenCommand('order-webhook listen', flags, target, async (t) => {
    const listener = await listenForOrderEvents({ ...t, appId: flags.app ?? '' });
    return {
      stop: () => listener.stop(),
      stopped: { appId: listener.appId, removed: true },
      leftBehind: "the app's order webhook was not removed",
    };
  });
}
