/**
 * Webhook POSTs over Node's own `node:https`, pinned to the checked addresses; https only, as the SSRF
 * rules allow no other scheme. Each attempt has a fresh agent (`agent: false`) whose connect-time
 * `lookup` hands back only the addresses the SSRF check accepted, so the socket is pinned to a checked
 * IP while TLS SNI, certificate checks and the Host header keep the hostname. IP literals never reach
 * `lookup` (Node connects to them directly); the check has accepted them already. `node:https` follows
 * no redirect: a 3xx is returned as a status. ADR 0011 says why this is not undici (bundle size).
 */
import type { LookupAddress } from 'node:dns';
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import type { AttemptResult, DeliveryErrorClass } from '../domain/outbound-webhook';
import type { WebhookRequest, WebhookSender } from '../app/outbound-webhook-ports';

/** At most this much of a response body is read (and thrown away). */
const MAX_RESPONSE_BYTES = 64 * 1024;

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

/** The class of a failed attempt, from the error and its causes. */
function errorClassOf(err: unknown): DeliveryErrorClass {
  for (let e = err as { name?: string; code?: string; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.name === 'TimeoutError' || e.code === 'ETIMEDOUT') return 'timeout';
    if (TLS_CODES.test(e.code ?? '')) return 'tls';
  }
  return 'network';
}

export class NodeHttpsWebhookSender implements WebhookSender {
  private readonly ca?: string[];

  /** `trustedCaPem`: an extra CA, set only by test wiring (WebhookNetworkPolicy) and the dev listeners. */
  constructor(options: { trustedCaPem?: string } = {}) {
    if (options.trustedCaPem) this.ca = [...rootCertificates, options.trustedCaPem];
  }

  /**
   * One attempt, `req.timeoutMs` in all (connect, TLS, headers, body). Once the status line is in, the
   * status is the result: the body is read up to {@link MAX_RESPONSE_BYTES}, or until the time is up,
   * and thrown away. The socket is destroyed when the attempt ends.
   */
  send(req: WebhookRequest): Promise<AttemptResult> {
    const pinned: LookupAddress[] = req.addresses.map((address) => ({ address, family: isIP(address) }));
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if (pinned.length === 0) return callback(Object.assign(new Error('no checked address'), { code: 'ENOTFOUND' }), []);
      if (options.all) return callback(null, pinned);
      return callback(null, pinned[0]!.address, pinned[0]!.family);
    };
    const signal = AbortSignal.timeout(req.timeoutMs);
    const body = Buffer.from(req.body);
    return new Promise<AttemptResult>((resolve) => {
      let status: number | undefined;
      const outgoing = request(
        req.url,
        {
          method: 'POST',
          headers: { ...req.headers, 'Content-Length': String(body.length) },
          agent: false,
          lookup,
          // SNI and the certificate check use the hostname; an IP literal is checked against the certificate's IP entries.
          servername: isIP(req.hostname) ? '' : req.hostname,
          signal,
          ...(this.ca ? { ca: this.ca } : {}),
        },
        (res: IncomingMessage) => {
          status = res.statusCode ?? 0;
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_RESPONSE_BYTES) res.destroy();
          });
          res.on('error', () => undefined);
          res.on('close', () => finish());
        },
      );
      const finish = (err?: unknown) => {
        outgoing.destroy();
        if (status !== undefined) resolve({ status });
        else resolve({ error: signal.aborted ? 'timeout' : errorClassOf(err) });
      };
      outgoing.on('error', finish);
      outgoing.end(body);
    });
  }
}
