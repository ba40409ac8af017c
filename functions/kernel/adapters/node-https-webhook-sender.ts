/**
 * Webhook POSTs over Node's own `node:https`, pinned to the checked addresses; https only, as the SSRF
 * rules allow no other scheme. Each attempt has a fresh agent (`agent: false`) whose connect-time
 * `lookup` hands back only the addresses the SSRF check accepted, so the socket is pinned to a checked
 * IP while TLS SNI, certificate checks and the Host header keep the hostname. IP literals never reach
 * `lookup` (Node connects to them directly); the check has accepted them already. `node:https` follows
 * no redirect: a 3xx is returned as a status. ADR 0011 says why this is not undici (bundle size).
 */
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { AttemptResult } from '../domain/outbound-webhook';
import type { WebhookRequest, WebhookSender } from '../app/outbound-webhook-ports';
import { failureClassOf, pinnedLookup, serverNameOf } from './pinned-https';

/** At most this much of a response body is read (and thrown away). */
const MAX_RESPONSE_BYTES = 64 * 1024;

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
          lookup: pinnedLookup(req.addresses),
          // SNI and the certificate check use the hostname; an IP literal is checked against the certificate's IP entries.
          servername: serverNameOf(req.hostname),
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
        else resolve({ error: signal.aborted ? 'timeout' : failureClassOf(err) });
      };
      outgoing.on('error', finish);
      outgoing.end(body);
    });
  }
}
