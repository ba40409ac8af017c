/**
 * What the `listen` commands share (`webhooks listen`, `order-webhook listen`), the way
 * `stripe listen --forward-to` works: a receiver on 127.0.0.1 (ephemeral port, HTTPS with a self-signed
 * certificate made at start) registers itself with a local platform started with
 * `PLATFORM_DEV_WEBHOOKS=1` (functions/local/dev-webhook-listeners.ts), which points a receiver of its
 * own at it and answers with the signing secret. Every request is printed as one JSON line (the kind's
 * signature check, headers, body) and answered 200, or with `--forward-to` passed on with its exact body
 * and headers and answered with that status. Stopping removes the registration.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEV_LISTENERS_PATH } from '../local/dev-webhook-listeners';
import { selfSignedCertificate } from './self-signed-cert';
import { forward, headersOf, parsedBody, readBody } from './webhook-delivery-request';

export const RESTART_HINT = 'restart the platform with the development switch: `PLATFORM_DEV_WEBHOOKS=1 npm start`';

/** The platform refused the listener, or cannot be reached: the message says what to do. */
export class ListenRefused extends Error {}

export interface ListenTarget {
  readonly baseUrl: string;
  readonly adminToken: string;
  readonly forwardTo?: string;
  /** Where each printed JSON block goes; stdout by default. */
  readonly print?: (text: string) => void;
}

/** One request as the receiver took it and answered it. */
export interface ReceivedRequest {
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** The status this receiver answered (the forward's with `--forward-to`). */
  readonly answered: number;
  readonly forward?: { readonly url: string; readonly status?: number; readonly error?: string };
}

/** The platform's answer to a registration: the id to remove it by, the signing secret, the kind's fields. */
export type Registration = { readonly id: string; readonly secret: string } & Readonly<Record<string, unknown>>;

/** What one kind of listener adds: its registration fields, its check of a request, its lines. */
export interface ListenerKind<F> {
  /** The certificate's common name. */
  readonly name: string;
  /** The registration body beside `port` and `certificatePem`. */
  readonly registration: Readonly<Record<string, unknown>>;
  /** Checks a request with the secret: the fields kept with it, and those printed before its headers and body. */
  check(request: ReceivedRequest, body: unknown, secret: string): { readonly fields: F; readonly printed: Readonly<Record<string, unknown>> };
  /** The first fields of the `listening` line. */
  listening(registration: Registration): Readonly<Record<string, unknown>>;
  /** The `listening` line's `stop` text. */
  readonly stop: string;
}

export interface DevListener<F> {
  readonly registration: Registration;
  readonly received: readonly (ReceivedRequest & F)[];
  /** Removes the registration (which removes the platform's exception) and closes the receiver. */
  stop(): Promise<void>;
}

async function register(target: ListenTarget, body: Readonly<Record<string, unknown>>): Promise<Registration> {
  let res: Response;
  try {
    res = await fetch(target.baseUrl + DEV_LISTENERS_PATH, {
      method: 'POST',
      headers: { Authorization: `Bearer ${target.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (err) {
    throw new ListenRefused(`cannot reach ${target.baseUrl}: ${(err as Error).message}; is the platform running (\`PLATFORM_DEV_WEBHOOKS=1 npm start\`)?`);
  }
  const answer = (await res.json().catch(() => ({}))) as { data?: Registration; error?: { code?: string; message?: string } };
  if (res.status === 201 && answer.data) return answer.data;
  if (res.status === 401 && answer.error?.code === 'unauthorized')
    throw new ListenRefused('the platform refused the admin token (ADMIN_TOKEN, or DATA_DIR/admin-token)');
  // Its own answers carry one of its codes; anything else comes from a platform without the switch.
  if (answer.error?.code && ['bad_request', 'forbidden', 'listener_unreachable', 'listener_unverified', 'unknown_app'].includes(answer.error.code)) {
    throw new ListenRefused(`the platform refused the listener (${res.status} ${answer.error.code}): ${answer.error.message ?? ''}`);
  }
  throw new ListenRefused(`the platform at ${target.baseUrl} does not accept webhook listeners (HTTP ${res.status}); ${RESTART_HINT}`);
}

/** Starts the receiver and registers it; resolves once the platform delivers to it. */
export async function startDevListener<F>(target: ListenTarget, kind: ListenerKind<F>): Promise<DevListener<F>> {
  const print = target.print ?? ((text: string) => console.log(text));
  const cert = selfSignedCertificate(kind.name);
  const received: (ReceivedRequest & F)[] = [];
  // A request (a backfill) may arrive before the registration answers with the secret: requests wait for it.
  let secretKnown!: (secret: string | undefined) => void;
  const secret = new Promise<string | undefined>((resolve) => (secretKnown = resolve));

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const key = await secret;
    if (key === undefined) return void res.writeHead(503).end();
    const headers = headersOf(req);
    const parsed = parsedBody(body);
    const fwd = target.forwardTo ? { url: target.forwardTo, ...(await forward(target.forwardTo, req, body)) } : undefined;
    const answered = fwd ? (fwd.status ?? 502) : 200;
    const request: ReceivedRequest = { path: req.url ?? '/', headers, body, answered, ...(fwd ? { forward: fwd } : {}) };
    const { fields, printed } = kind.check(request, parsed, key);
    received.push({ ...request, ...fields });
    print(
      JSON.stringify({ delivery: { receivedAt: new Date().toISOString(), ...printed, headers, body: parsed, ...(fwd ? { forward: fwd } : {}), answered } }),
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

  let registration: Registration;
  try {
    registration = await register(target, { ...kind.registration, port: (server.address() as AddressInfo).port, certificatePem: cert.certPem });
  } catch (err) {
    secretKnown(undefined);
    await close();
    throw err;
  }
  secretKnown(registration.secret);
  print(
    JSON.stringify({
      listening: {
        ...kind.listening(registration),
        certificateSha256: cert.fingerprint256,
        ...(target.forwardTo ? { forwardTo: target.forwardTo } : {}),
        stop: kind.stop,
      },
    }),
  );

  return {
    registration,
    received,
    async stop() {
      try {
        const res = await fetch(`${target.baseUrl}${DEV_LISTENERS_PATH}/${encodeURIComponent(registration.id)}`, {
          method: 'DELETE',
          headers: { Authorization: `Bearer ${target.adminToken}` },
        });
        // 404: the platform restarted and forgot the listener (or a newer one took its place): nothing is delivered to it any more.
        if (res.status !== 204 && res.status !== 404) throw new Error(`the platform answered ${res.status} to removing listener ${registration.id}`);
      } finally {
        await close();
      }
    },
  };
}

/** A started listener as the command sees it: how to stop it and what the last line says. */
export interface ListenRun {
  stop(): Promise<void>;
  /** The fields of the last line, `{"stopped":{…}}`. */
  readonly stopped: Readonly<Record<string, unknown>>;
  /** What a failed stop leaves behind, for its error line ("the subscription was not deleted"). */
  readonly leftBehind: string;
}

/**
 * A listen command: checks the target and `--forward-to`, starts the listener, runs until SIGINT
 * (Ctrl-C) or SIGTERM, then stops it and prints the `stopped` line; the exit code.
 */
export async function runListenCommand(
  command: string,
  flags: Readonly<Record<string, string | undefined>>,
  target: { baseUrl: string; token?: string },
  start: (target: ListenTarget) => Promise<ListenRun>,
): Promise<number> {
  const error = (message: string) => console.log(JSON.stringify({ error: { code: 'cli_error', message } }));
  if (!target.token) {
    error(`${command} works only against a local platform (admin token): ${RESTART_HINT}`);
    return 2;
  }
  const forwardTo = flags['forward-to'];
  if (forwardTo !== undefined && !/^https?:$/.test(URL.canParse(forwardTo) ? new URL(forwardTo).protocol : '')) {
    error('--forward-to must be an http or https URL');
    return 2;
  }
  let run: ListenRun;
  try {
    run = await start({ baseUrl: target.baseUrl, adminToken: target.token, ...(forwardTo ? { forwardTo } : {}) });
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
    await run.stop();
    console.log(JSON.stringify({ stopped: run.stopped }));
    return 0;
  } catch (err) {
    error(`stopped, but ${run.leftBehind}: ${(err as Error).message}`);
    return 1;
  }
}
