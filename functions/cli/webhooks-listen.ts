/**
 * `npm run admin -- webhooks listen`: a local HTTPS receiver for release-note webhooks, the way
 * `stripe listen --forward-to` works. It serves on 127.0.0.1 (ephemeral port) with a self-signed
 * certificate made at start, registers itself with a local platform started with
 * `PLATFORM_DEV_WEBHOOKS=1` (functions/local/dev-webhook-listeners.ts), which subscribes it, and
 * prints every delivery: event, headers, body, and whether `X-Svc-Signature` verifies with the
 * subscription's secret. It answers 200, or with `--forward-to` passes the exact body and headers on
 * and answers with that status. Stopping it deletes the subscription.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySvcSignature } from '../release-notes/domain/webhook-delivery';
import { DEV_LISTENERS_PATH } from '../local/dev-webhook-listeners';
import { selfSignedCertificate } from './self-signed-cert';
import { forward, headersOf, parsedBody, readBody } from './webhook-delivery-request';

export const RESTART_HINT = 'restart the platform with the development switch: `PLATFORM_DEV_WEBHOOKS=1 npm start`';

export interface ListenOptions {
  readonly baseUrl: string;
  readonly adminToken: string;
  readonly forwardTo?: string;
  readonly areas?: readonly string[];
  readonly categories?: readonly string[];
  /** Where each printed JSON block goes; stdout by default. */
  readonly print?: (text: string) => void;
}

export interface ReceivedDelivery {
  readonly event?: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  readonly signatureVerified: boolean;
  /** The status this receiver answered (the forward's with `--forward-to`). */
  readonly answered: number;
  readonly forward?: { readonly url: string; readonly status?: number; readonly error?: string };
}

export interface RunningListener {
  readonly subscriptionId: string;
  readonly secret: string;
  readonly callbackUrl: string;
  readonly deliveries: readonly ReceivedDelivery[];
  /** Deletes the subscription (which removes the platform's exception) and closes the receiver. */
  stop(): Promise<void>;
}

/** The platform refused the listener, or cannot be reached: the message says what to do. */
export class ListenRefused extends Error {}

async function register(opts: ListenOptions, port: number, certificatePem: string): Promise<{ id: string; secret: string; callbackUrl: string }> {
  let res: Response;
  try {
    res = await fetch(opts.baseUrl + DEV_LISTENERS_PATH, {
      method: 'POST',
      headers: { Authorization: `Bearer ${opts.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ port, certificatePem, ...(opts.areas ? { areas: opts.areas } : {}), ...(opts.categories ? { categories: opts.categories } : {}) }),
    });
  } catch (err) {
    throw new ListenRefused(`cannot reach ${opts.baseUrl}: ${(err as Error).message}; is the platform running (\`PLATFORM_DEV_WEBHOOKS=1 npm start\`)?`);
  }
  const body = (await res.json().catch(() => ({}))) as {
    data?: { id: string; secret: string; callbackUrl: string };
    error?: { code?: string; message?: string };
  };
  if (res.status === 201 && body.data) return body.data;
  if (res.status === 401 && body.error?.code === 'unauthorized')
    throw new ListenRefused('the platform refused the admin token (ADMIN_TOKEN, or DATA_DIR/admin-token)');
  // Its own answers carry one of its codes; anything else comes from a platform without the switch.
  if (body.error?.code && ['bad_request', 'forbidden', 'listener_unreachable', 'listener_unverified'].includes(body.error.code)) {
    throw new ListenRefused(`the platform refused the listener (${res.status} ${body.error.code}): ${body.error.message ?? ''}`);
  }
  throw new ListenRefused(`the platform at ${opts.baseUrl} does not accept webhook listeners (HTTP ${res.status}); ${RESTART_HINT}`);
}

/** Starts the receiver and subscribes it; resolves once the subscription exists. */
export async function listenForWebhooks(opts: ListenOptions): Promise<RunningListener> {
  const print = opts.print ?? ((text: string) => console.log(text));
  const cert = selfSignedCertificate('platform webhooks listen');
  const deliveries: ReceivedDelivery[] = [];
  // The backfill may arrive before the registration answers with the secret: requests wait for it.
  let secretKnown!: (secret: string | undefined) => void;
  const secret = new Promise<string | undefined>((resolve) => (secretKnown = resolve));

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const key = await secret;
    if (key === undefined) return void res.writeHead(503).end();
    const headers = headersOf(req);
    const parsed = parsedBody(body);
    const fwd = opts.forwardTo ? { url: opts.forwardTo, ...(await forward(opts.forwardTo, req, body)) } : undefined;
    const answered = fwd ? (fwd.status ?? 502) : 200;
    const event = typeof parsed === 'object' && parsed !== null ? (parsed as { event?: unknown }).event : undefined;
    const delivery: ReceivedDelivery = {
      ...(typeof event === 'string' ? { event } : {}),
      path: req.url ?? '/',
      headers,
      body,
      signatureVerified: verifySvcSignature(key, body, headers['x-svc-signature']),
      answered,
      ...(fwd ? { forward: fwd } : {}),
    };
    deliveries.push(delivery);
    print(
      JSON.stringify({
        delivery: {
          receivedAt: new Date().toISOString(),
          event: delivery.event ?? null,
          signature: delivery.signatureVerified
            ? 'verified (X-Svc-Signature, HMAC-SHA256 of the raw body with the secret)'
            : 'INVALID: X-Svc-Signature does not match the body and the secret',
          headers,
          body: parsed,
          ...(fwd ? { forward: fwd } : {}),
          answered,
        },
      }),
    );
    res.writeHead(answered, { 'Content-Type': 'text/plain' }).end(String(answered));
  };

  const server: Server = createServer({ key: cert.keyPem, cert: cert.certPem }, (req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });

  let subscription: { id: string; secret: string; callbackUrl: string };
  try {
    subscription = await register(opts, (server.address() as AddressInfo).port, cert.certPem);
  } catch (err) {
    secretKnown(undefined);
    await close();
    throw err;
  }
  secretKnown(subscription.secret);
  print(
    JSON.stringify({
      listening: {
        subscriptionId: subscription.id,
        secret: subscription.secret,
        callbackUrl: subscription.callbackUrl,
        certificateSha256: cert.fingerprint256,
        ...(opts.forwardTo ? { forwardTo: opts.forwardTo } : {}),
        stop: 'Ctrl-C deletes the subscription and exits',
      },
    }),
  );

  return {
    subscriptionId: subscription.id,
    secret: subscription.secret,
    callbackUrl: subscription.callbackUrl,
    deliveries,
    async stop() {
      try {
        const res = await fetch(`${opts.baseUrl}${DEV_LISTENERS_PATH}/${encodeURIComponent(subscription.id)}`, {
          method: 'DELETE',
          headers: { Authorization: `Bearer ${opts.adminToken}` },
        });
        // 404: the platform restarted and forgot the listener; the subscription can no longer be delivered to.
        if (res.status !== 204 && res.status !== 404) throw new Error(`the platform answered ${res.status} to deleting subscription ${subscription.id}`);
      } finally {
        await close();
      }
    },
  };
}

function list(value: string | undefined): string[] | undefined {
  return value === undefined
    ? undefined
    : value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
}

/** The CLI command: runs until SIGINT (Ctrl-C) or SIGTERM, then deletes the subscription; the exit code. */
export async function runWebhooksListen(flags: Readonly<Record<string, string | undefined>>, target: { baseUrl: string; token?: string }): Promise<number> {
  const error = (message: string) => console.log(JSON.stringify({ error: { code: 'cli_error', message } }));
  if (!target.token) {
    error(`webhooks listen works only against a local platform (admin token): ${RESTART_HINT}`);
    return 2;
  }
  const forwardTo = flags['forward-to'];
  if (forwardTo !== undefined && !/^https?:$/.test(URL.canParse(forwardTo) ? new URL(forwardTo).protocol : '')) {
    error('--forward-to must be an http or https URL');
    return 2;
  }
  const areas = list(flags.areas);
  const categories = list(flags.categories);
  let listener: RunningListener;
  try {
    listener = await listenForWebhooks({
      baseUrl: target.baseUrl,
      adminToken: target.token,
      ...(forwardTo ? { forwardTo } : {}),
      ...(areas ? { areas } : {}),
      ...(categories ? { categories } : {}),
    });
  } catch (err) {
    if (!(err instanceof ListenRefused)) throw err;
    error(err.message);
    return 1;
  }
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  try {
    await listener.stop();
    console.log(JSON.stringify({ stopped: { subscriptionId: listener.subscriptionId, deleted: true } }));
    return 0;
  } catch (err) {
    error(`stopped, but the subscription was not deleted: ${(err as Error).message}`);
    return 1;
  }
}
