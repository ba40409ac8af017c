/**
 * `npm run admin -- webhooks listen`: a local HTTPS receiver for release-note webhooks, the way
 * `stripe listen --forward-to` works (functions/cli/dev-listener.ts). It registers itself with a local
 * platform started with `PLATFORM_DEV_WEBHOOKS=1` (functions/local/dev-webhook-listeners.ts), which
 * subscribes it, and prints every delivery: event, headers, body, and whether `X-Svc-Signature`
 * verifies with the subscription's secret. It answers 200, or with `--forward-to` passes the exact body
 * and headers on and answers with that status. Stopping it deletes the subscription.
 */
import { verifySvcSignature } from '../release-notes/domain/webhook-delivery';
import { ListenRefused, RESTART_HINT, runListenCommand, startDevListener, type ListenTarget, type ReceivedRequest } from './dev-listener';
import { list } from './flag-parsers';

export { ListenRefused, RESTART_HINT };

export interface ListenOptions extends ListenTarget {
  readonly areas?: readonly string[];
  readonly categories?: readonly string[];
}

export interface ReceivedDelivery extends ReceivedRequest {
  readonly event?: string;
  readonly signatureVerified: boolean;
}

export interface RunningListener {
  readonly subscriptionId: string;
  readonly secret: string;
  readonly callbackUrl: string;
  readonly deliveries: readonly ReceivedDelivery[];
  /** Deletes the subscription (which removes the platform's exception) and closes the receiver. */
  stop(): Promise<void>;
}

/** Starts the receiver and subscribes it; resolves once the subscription exists. */
export async function listenForWebhooks(opts: ListenOptions): Promise<RunningListener> {
  const listener = await startDevListener<Pick<ReceivedDelivery, 'event' | 'signatureVerified'>>(opts, {
    name: 'platform webhooks listen',
    registration: { ...(opts.areas ? { areas: opts.areas } : {}), ...(opts.categories ? { categories: opts.categories } : {}) },
    check: (request, body, secret) => {
      const event = typeof body === 'object' && body !== null ? (body as { event?: unknown }).event : undefined;
      const signatureVerified = verifySvcSignature(secret, request.body, request.headers['x-svc-signature']);
      return {
        fields: { ...(typeof event === 'string' ? { event } : {}), signatureVerified },
        printed: {
          event: typeof event === 'string' ? event : null,
          signature: signatureVerified
            ? 'verified (X-Svc-Signature, HMAC-SHA256 of the raw body with the secret)'
            : 'INVALID: X-Svc-Signature does not match the body and the secret',
        },
      };
    },
    listening: (r) => ({ subscriptionId: r.id, secret: r.secret, callbackUrl: r.callbackUrl }),
    stop: 'Ctrl-C deletes the subscription and exits',
  });
  return {
    subscriptionId: listener.registration.id,
    secret: listener.registration.secret,
    callbackUrl: String(listener.registration.callbackUrl),
    deliveries: listener.received,
    stop: () => listener.stop(),
  };
}

/** The CLI command: runs until SIGINT (Ctrl-C) or SIGTERM, then deletes the subscription; the exit code. */
export function runWebhooksListen(flags: Readonly<Record<string, string | undefined>>, target: { baseUrl: string; token?: string }): Promise<number> {
  const areas = list(flags.areas);
  const categories = list(flags.categories);
  return runListenCommand('webhooks listen', flags, target, async (t) => {
    const listener = await listenForWebhooks({ ...t, ...(areas ? { areas } : {}), ...(categories ? { categories } : {}) });
    return {
      stop: () => listener.stop(),
      stopped: { subscriptionId: listener.subscriptionId, deleted: true },
      leftBehind: 'the subscription was not deleted',
    };
  });
}
