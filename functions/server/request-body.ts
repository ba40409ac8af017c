/**
 * How the local server takes a request's body: read whole up to API Gateway's ceiling, refused past it
 * without keeping the rest, or handed to a `multipart` route as a stream.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';

/** API Gateway's own ceiling for the routes it serves; `multipart` routes stream and set their own limit. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** How long a connection whose request body was refused unread stays open for the client to read the answer. */
const UNREAD_BODY_LINGER_MS = 2_000;

/** The most of a refused body read and thrown away so its client can read the answer; past it, the connection drops. */
const DISCARD_LIMIT_BYTES = 64 * 1024 * 1024;

/** A body over API Gateway's ceiling: refused with the gateway's 413, never read to its end. */
export class BodyTooLarge extends Error {}

/** The client went away (or its connection failed) before its body arrived: there is no one to answer. */
export class BodyAborted extends Error {}

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
    req.on('error', (err) => reject(new BodyAborted(err.message)));
    req.on('aborted', () => reject(new BodyAborted('aborted')));
  });
}

/**
 * Node destroys a `Connection: close` socket as soon as the answer is flushed: a client still sending
 * its body then gets a reset, which can throw away the answer it has not read yet (EPIPE, ECONNRESET).
 * This closes the connection the lingering way instead: the answer, then our FIN, then reading on
 * (and discarding, unless `keepReading` is false) until the client closes its side, for at most
 * UNREAD_BODY_LINGER_MS.
 */
function lingerOnClose(socket: Socket, keepReading: boolean): void {
  socket.destroySoon = function lingeringDestroy(this: Socket) {
    this.end();
    if (!keepReading) this.pause();
    const timer = setTimeout(() => this.destroy(), UNREAD_BODY_LINGER_MS);
    timer.unref();
    this.once('end', () => this.destroy());
    this.once('close', () => clearTimeout(timer));
  };
}

/**
 * The rest of a refused body is read and thrown away (as a lingering close does), so the client, which
 * is still sending, reads the answer instead of a reset; a body past DISCARD_LIMIT_BYTES drops the
 * connection. Nothing of it is kept. The answer closes the connection.
 */
export function discardRest(req: IncomingMessage, res: ServerResponse): void {
  let discarded = 0;
  req.removeAllListeners('data');
  req.on('data', (c: Buffer) => {
    discarded += c.length;
    if (discarded > DISCARD_LIMIT_BYTES) req.socket.destroy();
  });
  req.on('error', () => undefined);
  req.resume();
  if (req.complete) return;
  res.setHeader('Connection', 'close');
  lingerOnClose(req.socket, true);
}

/**
 * A `multipart` route reads its body itself, as it arrives (functions/kernel/http/kit-request.ts `bodyStream`), and
 * may answer before the client has sent it all (an upload over the limit). Such a connection stops
 * being read: once the answer is written, the server closes its side and drops the connection a moment
 * later, so a 200 MB body is never read past the point of refusal, and the client still reads the answer.
 */
export function streamBody(req: IncomingMessage, res: ServerResponse): Readable {
  // Marks the request as consumed by us: Node would otherwise drain (read and discard) the rest of an
  // unread body after the response.
  req.read(0);
  // A client that goes away mid-upload fails the parser reading this stream; it must never be an unhandled 'error'.
  req.on('error', () => undefined);
  res.on('finish', () => {
    if (req.complete) return;
    req.unpipe();
    req.pause();
    req.socket.end();
    setTimeout(() => req.socket.destroy(), UNREAD_BODY_LINGER_MS).unref();
  });
  if (!req.complete) lingerOnClose(req.socket, false);
  return req;
}
