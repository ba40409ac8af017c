/**
 * How the local server takes a request's body: read whole up to API Gateway's ceiling, refused past it
 * without keeping the rest, or handed to a `multipart` route as a stream.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';

/** API Gateway's own ceiling for the routes it serves; `multipart` routes stream and set their own limit. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** How long a connection whose request body was refused unread stays open for the client to read the answer. */
const UNREAD_BODY_LINGER_MS = 2_000;

/** A body over API Gateway's ceiling: refused with the gateway's 413, never read to its end. */
export class BodyTooLarge extends Error {}

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return reject(new BodyTooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(c);
      // Stop keeping it: the caller answers, and the rest is thrown away (discardRest).
      req.off('data', onData);
      reject(new BodyTooLarge());
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The most of a refused body read and thrown away so its client can read the answer; past it, the connection drops. */
const DISCARD_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * The rest of a refused body is read and thrown away (as a lingering close does), so the client, which
 * is still sending, reads the answer instead of a reset; a body past DISCARD_LIMIT_BYTES drops the
 * connection. Nothing of it is kept.
 */
export function discardRest(req: IncomingMessage): void {
  let discarded = 0;
  req.removeAllListeners('data');
  req.on('data', (c: Buffer) => {
    discarded += c.length;
    if (discarded > DISCARD_LIMIT_BYTES) req.destroy();
  });
  req.resume();
}

/**
 * A `multipart` route reads its body itself, as it arrives (functions/http/kit-request.ts `bodyStream`), and
 * may answer before the client has sent it all (an upload over the limit). Such a connection stops
 * being read: once the answer is written, the server closes its side and drops the connection a moment
 * later, so a 200 MB body is never read past the point of refusal, and the client still reads the answer.
 */
export function streamBody(req: IncomingMessage, res: ServerResponse): Readable {
  // Marks the request as consumed by us: Node would otherwise drain (read and discard) the rest of an
  // unread body after the response.
  req.read(0);
  res.on('finish', () => {
    if (req.complete) return;
    req.unpipe();
    req.pause();
    req.socket.end();
    setTimeout(() => req.socket.destroy(), UNREAD_BODY_LINGER_MS).unref();
  });
  return req;
}
