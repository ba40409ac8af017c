/**
 * A `fetch` for the MCP client that connects only to the addresses the SSRF check accepted for a
 * server a request named (ADR 0050): Node's own `node:https` with a connect-time lookup pinned to them,
 * so a host that answers differently by the time the client connects (DNS rebinding) cannot move the
 * connection to a private address. TLS SNI, the certificate check and the Host header keep the
 * hostname; no redirect is followed (a 3xx reaches the client as a status, as `redirect: "error"` asks).
 */
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { Readable } from 'node:stream';
import { pinnedLookup, serverNameOf } from '../../kernel/adapters/pinned-https';

export type PinnedFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const NO_BODY = new Set([101, 204, 205, 304]);

function headersOf(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

async function bodyOf(body: RequestInit['body']): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  return Buffer.from(await new Response(body).arrayBuffer());
}

/** `ca`: the CAs to trust instead of the system's (a test's CA beside them); undefined for the system's. */
export function pinnedFetch(addresses: readonly string[], ca?: readonly string[]): PinnedFetch {
  const lookup = pinnedLookup(addresses);
  return async (input, init = {}) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    if (url.protocol !== 'https:') throw new TypeError(`only https is fetched here, not ${url.protocol}`);
    const body = await bodyOf(init.body);
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    return new Promise<Response>((resolve, reject) => {
      const outgoing = request(
        url,
        {
          method: init.method ?? 'GET',
          headers: body ? { ...headers, 'content-length': String(body.length) } : headers,
          agent: false,
          lookup,
          servername: serverNameOf(url.hostname),
          ...(init.signal ? { signal: init.signal } : {}),
          ...(ca ? { ca: [...ca] } : {}),
        },
        (res) => {
          const status = res.statusCode ?? 0;
          const stream = NO_BODY.has(status) || init.method === 'HEAD' ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
          if (!stream) res.resume();
          resolve(new Response(stream, { status, statusText: res.statusMessage ?? '', headers: headersOf(res) }));
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  };
}
