/**
 * The Responses API's file URLs, fetched as webhooks are sent (ADR 0011, ADR 0048): the connection
 * pinned to the addresses the SSRF check accepted, and no redirect followed (`node:https` follows
 * none: a 3xx is a refusal). The body is counted as it arrives and the connection cut once it passes
 * the limit; one deadline covers connect, TLS, headers and body.
 */
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { rootCertificates } from 'node:tls';
import { failureClassOf, pinnedLookup, serverNameOf } from '../../kernel/adapters/pinned-https';
import type { CheckedUrl, FetchedUrl, UrlFetcher } from '../app/chat-ports';

export class NodeHttpsUrlFetcher implements UrlFetcher {
  private readonly ca?: string[];

  /** `trustedCaPem`: an extra CA, set only by test wiring (WebhookNetworkPolicy), as for webhooks. */
  constructor(options: { trustedCaPem?: string } = {}) {
    if (options.trustedCaPem) this.ca = [...rootCertificates, options.trustedCaPem];
  }

  fetch(check: CheckedUrl, limits: { readonly maxBytes: number; readonly timeoutMs: number }): Promise<FetchedUrl> {
    const signal = AbortSignal.timeout(limits.timeoutMs);
    const seconds = `${limits.timeoutMs / 1000} s`;
    const tooBig = `the body is over the ${limits.maxBytes} bytes allowed`;
    return new Promise<FetchedUrl>((resolve) => {
      let settled = false;
      const finish = (result: FetchedUrl) => {
        if (settled) return;
        settled = true;
        outgoing.destroy();
        resolve(result);
      };
      const failed = (err: unknown) => {
        const kind = signal.aborted ? 'timeout' : failureClassOf(err);
        const reason =
          kind === 'timeout'
            ? `no complete answer within ${seconds}`
            : kind === 'tls'
              ? 'the TLS connection failed (the certificate is not trusted or not for this host)'
              : 'the connection failed';
        finish({ ok: false, reason });
      };
      const outgoing = request(
        check.url,
        {
          method: 'GET',
          headers: { Accept: 'image/png, image/jpeg, application/pdf, application/vnd.openxmlformats-officedocument.wordprocessingml.document, */*' },
          agent: false,
          lookup: pinnedLookup(check.addresses),
          servername: serverNameOf(check.hostname),
          signal,
          ...(this.ca ? { ca: this.ca } : {}),
        },
        (res: IncomingMessage) => {
          const status = res.statusCode ?? 0;
          if (status < 200 || status > 299) {
            return finish({ ok: false, reason: `the server answered ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}` });
          }
          if (Number(res.headers['content-length']) > limits.maxBytes) return finish({ ok: false, reason: tooBig });
          const chunks: Buffer[] = [];
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > limits.maxBytes) return finish({ ok: false, reason: tooBig });
            chunks.push(chunk);
          });
          res.on('end', () => {
            const contentType = res.headers['content-type'];
            finish({ ok: true, bytes: Buffer.concat(chunks), ...(contentType ? { contentType } : {}) });
          });
          res.on('error', failed);
          res.on('close', () => failed(new Error('the answer ended early')));
        },
      );
      outgoing.on('error', failed);
      outgoing.end();
    });
  }
}
