/**
 * Requests Node's HTTP parser refuses before any handler sees them (an unknown method, raw UTF-8 in
 * the path, `Transfer-Encoding` with `Content-Length`, a header section over the limit). Node's own
 * answer to them has an empty body; this one is the router's, in the shape of the area the request
 * line names: 405 for a method no route takes, 414 for a request-target over the front door's limit,
 * 431 for headers over it, 400 for the rest. A connection that failed (reset, timed out) is closed
 * without an answer: there is no one left to read it.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { MAX_TARGET_BYTES, parseRequestTarget } from './request-target';
import type { Router, RouterAnswer } from './router';

interface ParserError extends Error {
  readonly code?: string;
  /** The bytes the parser was given when it failed: the request line, when it was in them. */
  readonly rawPacket?: Buffer;
}

/** The parser's error codes that mean the connection, not the request, failed. */
const CONNECTION_FAILURES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ERR_HTTP_REQUEST_TIMEOUT', 'HPE_CLOSED_CONNECTION']);

const REASONS: Readonly<Record<string, string>> = {
  HPE_INVALID_URL: 'Malformed request-target (only ASCII is allowed: percent-encode the rest)',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length and Transfer-Encoding must not be sent together',
  HPE_INVALID_TRANSFER_ENCODING: 'Malformed Transfer-Encoding',
  HPE_INVALID_HEADER_TOKEN: 'Malformed header',
  HPE_INVALID_CONTENT_LENGTH: 'Malformed Content-Length, or Content-Length sent together with Transfer-Encoding',
  HPE_INVALID_CHUNK_SIZE: 'Malformed chunked body',
  HPE_INVALID_VERSION: 'Malformed HTTP version',
  HPE_LF_EXPECTED: 'Malformed line ending',
  HPE_CR_EXPECTED: 'Malformed line ending',
};

/** The method and target of the request line in `packet`, and whether the whole line was there. */
function requestLineOf(packet: Buffer | undefined): { method: string; target: string; complete: boolean } | undefined {
  if (!packet?.length) return undefined;
  const head = packet.subarray(0, MAX_TARGET_BYTES + 64).toString('latin1');
  const end = head.search(/\r?\n/);
  const line = end >= 0 ? head.slice(0, end) : head;
  const m = /^(\S+) (\S+)/.exec(line);
  return m ? { method: m[1]!, target: m[2]!, complete: end >= 0 } : undefined;
}

/**
 * The answer to a request the parser refused. `pending` is the target of the request the failure
 * interrupted, when its head had already been read (a body that ends early): its area decides the shape.
 */
export function parserRefusal(router: Router, err: ParserError, pending?: string): RouterAnswer {
  const line = requestLineOf(err.rawPacket);
  const target = pending ?? line?.target;
  const pathname = target !== undefined ? parseRequestTarget(target).pathname : '';
  const area = target !== undefined ? router.areaOf(pathname) : undefined;
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    if (!line?.complete || line.target.length > MAX_TARGET_BYTES)
      return router.answer(area, 'uri_too_long', `The request-target is longer than ${MAX_TARGET_BYTES} bytes`);
    return router.answer(area, 'headers_too_large', 'The request headers are too large');
  }
  if (err.code === 'HPE_INVALID_METHOD' && line && pending === undefined) {
    const match = router.match(line.method, pathname);
    if (match.kind !== 'route') return router.unmatched(line.method, pathname, match);
  }
  return router.answer(area, 'bad_request', REASONS[err.code ?? ''] ?? 'Malformed HTTP request');
}

/** The server's `clientError` listener. */
export function clientErrorListener(router: Router, log: (line: object) => void): (err: ParserError, socket: Duplex) => void {
  return (err, socket) => {
    socket.on('error', () => undefined);
    const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean; req?: { url?: string } } })._httpMessage;
    if (CONNECTION_FAILURES.has(err.code ?? '') || !socket.writable || current?.headersSent) {
      socket.destroy();
      return;
    }
    const answer = parserRefusal(router, err, current?.req?.url);
    log({ level: 'INFO', message: 'request refused by the HTTP parser', code: err.code, status: answer.status });
    writeRawAnswer(socket, answer);
  };
}

/** Writes `answer` straight to a connection no response object owns any more, and closes it. */
export function writeRawAnswer(socket: Duplex, answer: RouterAnswer): void {
  socket.on('error', () => undefined);
  const headers = { ...answer.headers, 'Content-Length': String(Buffer.byteLength(answer.body)), Connection: 'close' };
  const head = [`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n');
  socket.end(`${head}\r\n\r\n${answer.body}`);
  // The client may still be sending what was refused: give it a moment to read the answer.
  setTimeout(() => socket.destroy(), 2_000).unref();
}
