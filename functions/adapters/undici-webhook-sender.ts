/**
 * Webhook POSTs over undici (reference/webhooks.md, step 3): a fresh Agent per attempt whose
 * connect-time `lookup` hands back only the addresses the SSRF check accepted, so the socket is pinned
 * to a checked IP while TLS SNI, certificate checks and the Host header keep the hostname. IP literals
 * never reach `lookup`; the check has accepted them already. No redirect is followed (undici's
 * `request` has no redirect handling): a 3xx is returned as a status.
 */
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import type { AttemptResult, DeliveryErrorClass } from '../domain/webhook-delivery';
import type { WebhookRequest, WebhookSender } from '../ports/release-notes';

/** At most this much of a response body is read (and thrown away). */
const MAX_RESPONSE_BYTES = 64 * 1024;

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

/** The class of a failed attempt, from the error and its causes. */
export function errorClassOf(err: unknown): DeliveryErrorClass {
  for (let e = err as { name?: string; code?: string; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.name === 'TimeoutError' || TIMEOUT_CODES.has(e.code ?? '')) return 'timeout';
    if (TLS_CODES.test(e.code ?? '')) return 'tls';
  }
  return 'network';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export class UndiciWebhookSender implements WebhookSender {
  private readonly ca?: string[];

  /** `trustedCaPem`: an extra CA, set only by test wiring (WebhookNetworkPolicy). */
  constructor(options: { trustedCaPem?: string } = {}) {
    if (options.trustedCaPem) this.ca = [...rootCertificates, options.trustedCaPem];
  }

  async send(req: WebhookRequest): Promise<AttemptResult> {
    const pinned: LookupAddress[] = req.addresses.map((address) => ({ address, family: isIP(address) }));
    const lookup = (_hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
      if (pinned.length === 0) return callback(Object.assign(new Error('no checked address'), { code: 'ENOTFOUND' }), []);
      if (options.all) return callback(null, pinned);
      return callback(null, pinned[0]!.address, pinned[0]!.family);
    };
    const agent = new Agent({
      connect: { lookup: lookup as never, timeout: req.timeoutMs, ...(this.ca ? { ca: this.ca } : {}) },
      connections: 1,
    });
    try {
      const res = await request(req.url, {
        method: 'POST',
        headers: req.headers,
        body: Buffer.from(req.body),
        dispatcher: agent,
        signal: AbortSignal.timeout(req.timeoutMs),
        headersTimeout: req.timeoutMs,
        bodyTimeout: req.timeoutMs,
      });
      await res.body.dump({ limit: MAX_RESPONSE_BYTES }).catch(() => undefined);
      return { status: res.statusCode };
    } catch (err) {
      return { error: errorClassOf(err) };
    } finally {
      agent.destroy().catch(() => undefined);
    }
  }
}
