/**
 * Local development only (`PLATFORM_DEV_WEBHOOKS=1 npm start`, functions/local/main-options.ts): lets
 * `npm run admin -- webhooks listen` receive real, signed deliveries on 127.0.0.1, the way
 * `stripe listen` does. The SSRF rules are not relaxed; one narrow exception is added per listener:
 *
 * - Registration is a local-only admin path served by this process ({@link DEV_LISTENERS_PATH}), not a
 *   route of the route table: it exists nowhere else (no API Gateway method, no Lambda), and only when
 *   the switch is on. It needs the admin token and a loopback peer.
 * - The listener gives its port and its self-signed certificate. The platform first connects to
 *   127.0.0.1:<port> and requires that exact certificate to be presented, then builds the callback URL
 *   itself (`https://127.0.0.1:<port>/<random>`): the caller never chooses the host.
 * - The public routes keep the strict deps: `POST /api/v1/release-notes/subscriptions` still refuses
 *   every loopback callback. Only the queue workers get {@link DevWebhookListeners.workerDeps}, whose
 *   sender delivers to a non-public address only when the URL is exactly a registered listener's, and
 *   then trusts that listener's certificate (beside the system roots) for that URL alone.
 * - Removing the listener (or stopping the platform) removes the exception and its subscription.
 * - `npm run admin -- order-webhook listen --app <appId>` registers the same way with
 *   `{kind: 'acp-orders', appId, …}`: the platform sets that app's order-event receiver to the URL it
 *   built (a secret it makes), through the same exception. The newest listener of an app takes over;
 *   removing it removes the app's receiver, if it is still the listener's.
 */
import { X509Certificate, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect } from 'node:tls';
import * as z from 'zod/mini';
import { NodeHttpsWebhookSender } from '../kernel/adapters/node-https-webhook-sender';
import { createWebhookSubscription } from '../release-notes/app/create-webhook-subscription';
import { setOrderWebhook } from '../acp/app/manage-order-webhook';
import { DomainError } from '../kernel/domain/errors';
import { CHANGE_KINDS } from '../release-notes/domain/release-notes';
import { microsToIso } from '../kernel/domain/time';
import { classifyAddress } from '../kernel/domain/webhook-callback';
import { SUBSCRIPTION_LIMITS } from '../release-notes/domain/webhook-subscription';
import { subscriptionOut } from '../release-notes/http/release-notes-presenters';
import type { WebhookRequest, WebhookSender } from '../kernel/app/outbound-webhook-ports';
import type { LocalDeps } from './local-wiring';
import { decodePathValue, parseRequestTarget } from '../server/request-target';

/** The only path this module serves: POST registers a listener, DELETE …/{id} (the id POST answered) removes it. */
export const DEV_LISTENERS_PATH = '/admin/v1/dev/webhook-listeners';

/** The one address a listener may use. */
export const LISTENER_ADDRESS = '127.0.0.1';

const PROBE_TIMEOUT_MS = 3_000;
const MAX_BODY_BYTES = 64 * 1024;

const endpoint = {
  port: z.number().check(z.int(), z.gte(1), z.lte(65535)),
  certificatePem: z.string().check(z.maxLength(16 * 1024)),
};

/** A release-notes subscription (no kind: what `webhooks listen` sends), or an app's order-event receiver. */
const registration = z.union([
  z.strictObject({
    kind: z.optional(z.literal('release-notes')),
    ...endpoint,
    areas: z.optional(z.array(z.string().check(z.maxLength(SUBSCRIPTION_LIMITS.areaChars))).check(z.maxLength(SUBSCRIPTION_LIMITS.areas))),
    categories: z.optional(z.array(z.enum(CHANGE_KINDS)).check(z.maxLength(CHANGE_KINDS.length * 2))),
  }),
  z.strictObject({ kind: z.literal('acp-orders'), appId: z.string().check(z.minLength(1), z.maxLength(64)), ...endpoint }),
]);

interface Listener {
  readonly sender: WebhookSender;
  /** What DELETE names, set once registered: the subscription id, or the order listener's id. */
  id?: string;
  /** The app whose order events it receives. */
  appId?: string;
  /** Undoes what registering set up (the subscription, the app's order webhook). */
  release?: () => Promise<void>;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Connects to the listener and requires exactly the registered certificate (proof it holds the key and listens). */
function probe(port: number, cert: X509Certificate): Promise<void> {
  return new Promise((resolve, reject) => {
    // Not a chain check: the handshake proves the peer holds the key of the certificate it presents,
    // and that certificate must be exactly the registered one.
    const socket = connect({ host: LISTENER_ADDRESS, port, rejectUnauthorized: false, timeout: PROBE_TIMEOUT_MS }, () => {
      const presented = socket.getPeerCertificate().fingerprint256;
      socket.destroy();
      if (presented === cert.fingerprint256) resolve();
      else reject(new Refusal(422, 'listener_unverified', 'the listener presented another certificate'));
    });
    socket.on('timeout', () => socket.destroy(new Error('timed out')));
    socket.on('error', (err) =>
      reject(new Refusal(422, 'listener_unreachable', `no TLS listener with that certificate on ${LISTENER_ADDRESS}:${port} (${err.message})`)),
    );
  });
}

function isLoopbackPeer(req: IncomingMessage): boolean {
  const a = req.socket.remoteAddress ?? '';
  return a === '127.0.0.1' || a === '::1' || a === '::ffff:127.0.0.1';
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Refusal(413, 'payload_too_large', 'body too large');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new Refusal(400, 'bad_request', 'body must be JSON');
  }
}

function reply(res: ServerResponse, status: number, body?: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(body === undefined ? undefined : JSON.stringify(body));
}

export class DevWebhookListeners {
  private readonly byUrl = new Map<string, Listener>();
  /**
   * The workers' exception list, kept live: the listener address while at least one listener is
   * registered, empty otherwise. The sender below still refuses it for any URL but a listener's.
   */
  private readonly exceptions: string[] = [];
  /** What the queue workers run on: the platform's deps with this registry's exception and sender. */
  readonly workerDeps: LocalDeps;

  constructor(
    private readonly deps: LocalDeps,
    private readonly adminToken: string,
  ) {
    const base = deps.webhookSender;
    const sender: WebhookSender = {
      send: (req: WebhookRequest) => {
        const listener = this.byUrl.get(req.url);
        if (listener) return listener.sender.send(req);
        if (req.addresses.some((a) => !classifyAddress(a).allowed)) return Promise.resolve({ error: 'refused_address' as const });
        return base.send(req);
      },
    };
    this.workerDeps = { ...deps, webhookExceptions: this.exceptions, webhookSender: sender };
  }

  /** The local server's request handling with this module's path in front of the route table's. */
  requestListener(next: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
    return async (req, res) => {
      const path = parseRequestTarget(req.url).pathname;
      if (path !== DEV_LISTENERS_PATH && !path.startsWith(`${DEV_LISTENERS_PATH}/`)) return void (await next(req, res));
      try {
        if (!isLoopbackPeer(req)) throw new Refusal(403, 'forbidden', 'webhook listeners register from this machine only');
        if (!this.authorized(req.headers.authorization)) throw new Refusal(401, 'unauthorized', 'admin token required');
        if (req.method === 'POST' && path === DEV_LISTENERS_PATH) return reply(res, 201, { data: await this.register(await readJson(req)) });
        if (req.method === 'DELETE' && path !== DEV_LISTENERS_PATH) {
          await this.remove(decodePathValue(path.slice(DEV_LISTENERS_PATH.length + 1)));
          return reply(res, 204);
        }
        throw new Refusal(405, 'method_not_allowed', `${req.method} is not allowed on ${path}`);
      } catch (err) {
        if (err instanceof Refusal) return reply(res, err.status, { error: { code: err.code, message: err.message } });
        this.deps.logger.error('dev webhook listener failed', { error: String(err) });
        return reply(res, 500, { error: { code: 'internal', message: 'Internal server error' } });
      }
    };
  }

  /** Removes every listener's subscription or order webhook (the platform is stopping). */
  async close(): Promise<void> {
    for (const l of [...this.byUrl.values()]) if (l.id) await this.remove(l.id).catch(() => undefined);
  }

  private authorized(header: string | undefined): boolean {
    const given = Buffer.from(header?.replace(/^Bearer /, '') ?? '');
    const expected = Buffer.from(this.adminToken);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private async register(raw: unknown): Promise<Record<string, unknown>> {
    const parsed = registration.safeParse(raw);
    if (!parsed.success) {
      throw new Refusal(400, 'bad_request', 'body must be {port, certificatePem, areas?, categories?} or {kind: "acp-orders", appId, port, certificatePem}');
    }
    const input = parsed.data;
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(input.certificatePem);
    } catch {
      throw new Refusal(400, 'bad_request', 'certificatePem is not a PEM certificate');
    }
    if (cert.ca || !cert.checkIP(LISTENER_ADDRESS) || cert.issuer !== cert.subject || !cert.verify(cert.publicKey) || Date.parse(cert.validTo) < Date.now()) {
      throw new Refusal(400, 'bad_request', `certificatePem must be a current self-signed leaf certificate for ${LISTENER_ADDRESS}`);
    }
    await probe(input.port, cert);
    const callbackUrl = `https://${LISTENER_ADDRESS}:${input.port}/${randomBytes(12).toString('base64url')}`;
    const listener: Listener = { sender: new NodeHttpsWebhookSender({ trustedCaPem: cert.toString() }) };
    // Registered before the subscription exists: its backfill may be delivered before create returns.
    this.byUrl.set(callbackUrl, listener);
    this.syncExceptions();
    try {
      const registered =
        input.kind === 'acp-orders' ? await this.receiveOrderEvents(listener, input.appId, callbackUrl) : await this.subscribe(listener, input, callbackUrl);
      this.deps.logger.info('dev webhook listener registered', {
        kind: input.kind ?? 'release-notes',
        id: listener.id,
        port: input.port,
        certificate: cert.fingerprint256,
      });
      return registered;
    } catch (err) {
      this.byUrl.delete(callbackUrl);
      this.syncExceptions();
      throw err;
    }
  }

  private async subscribe(listener: Listener, input: { areas?: string[]; categories?: (typeof CHANGE_KINDS)[number][] }, callbackUrl: string) {
    const created = await createWebhookSubscription(
      { ...this.deps, webhookExceptions: [LISTENER_ADDRESS] },
      { callbackUrl, ...(input.areas ? { areas: input.areas } : {}), ...(input.categories ? { categories: input.categories } : {}) },
    );
    const s = created.subscription;
    listener.id = s.id;
    listener.release = async () => {
      const subscription = await this.deps.subscriptions.get(s.id);
      if (subscription) await this.deps.subscriptions.remove(subscription);
      await this.deps.deliveryLog.removeAll(s.id);
    };
    // The subscription as the API answers its create, less what a listener never needs to print.
    const { maskedSecret: _masked, updatedAt: _updated, ...registered } = subscriptionOut(s, created.secret);
    return registered;
  }

  /** Sets the app's order-event receiver to the listener, with a secret the platform makes. */
  private async receiveOrderEvents(listener: Listener, appId: string, url: string) {
    let set: Awaited<ReturnType<typeof setOrderWebhook>>;
    try {
      set = await setOrderWebhook({ ...this.deps, webhookExceptions: [LISTENER_ADDRESS] }, { appId, url });
    } catch (err) {
      if (err instanceof DomainError && err.code === 'not_found') throw new Refusal(404, 'unknown_app', `no live app ${appId}`);
      throw err;
    }
    // The app's receiver is this listener now: an earlier listener of the app is left with nothing to receive.
    for (const [earlierUrl, earlier] of this.byUrl) if (earlier !== listener && earlier.appId === appId) this.byUrl.delete(earlierUrl);
    listener.id = `ordl_${randomBytes(12).toString('base64url')}`;
    listener.appId = appId;
    listener.release = async () => {
      // Unless the merchant (or a newer listener) has set another receiver since.
      if ((await this.deps.orderWebhooks.get(appId))?.url === set.webhook.url) await this.deps.orderWebhooks.remove(appId);
    };
    return { id: listener.id, kind: 'acp-orders', appId, url: set.webhook.url, secret: set.secret, createdAt: microsToIso(set.webhook.updatedAtUs) };
  }

  private async remove(id: string): Promise<void> {
    const entry = [...this.byUrl.entries()].find(([, l]) => l.id === id);
    if (!entry) throw new Refusal(404, 'not_found', 'no listener with that id');
    this.byUrl.delete(entry[0]);
    this.syncExceptions();
    await entry[1].release?.();
  }

  private syncExceptions(): void {
    this.exceptions.splice(0, this.exceptions.length, ...(this.byUrl.size > 0 ? [LISTENER_ADDRESS] : []));
  }
}
