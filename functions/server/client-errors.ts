/**
 * Requests Node's HTTP parser refuses before any handler sees them (an unknown method, raw UTF-8 in
 * the path, `Transfer-Encoding` with `Content-Length`, a header section over the limit). Node's own
 * answer to them has an empty body; this one is the router's, in the shape of the area the request
 * line names: 405 for a method no route takes, 414 for a request-target over the front door's limit,
 * 431 for headers over it, 400 for the rest. A connection that failed (reset, timed out) is closed
 * without an answer: there is no one left to read it. Bytes the parser refuses after a complete request
 * (a body longer than its Content-Length, a pipelined request it cannot read) are the next request:
 * every request before them is answered first, then the refusal is written and the connection closed.
 */
import { METHODS, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { MAX_TARGET_BYTES, parseRequestTarget } from './request-target';
import type { Router, RouterAnswer } from './router';

interface ParserError extends Error {
  readonly code?: string;
  /** The bytes the parser was given when it failed: the request line, when it was in them. */
  readonly rawPacket?: Buffer;
  /** Where in `rawPacket` the parser stopped. */
  readonly bytesParsed?: number;
}

/** A response still owed on a connection: the one being written, or one queued behind it (pipelining). */
interface InFlight {
  readonly headersSent?: boolean;
  readonly req?: { readonly url?: string; readonly complete?: boolean };
  once(event: 'finish' | 'close', listener: () => void): unknown;
}

/** `parser.incoming` is the request the parser read last: the one a body error belongs to. */
type FrontDoorSocket = Duplex & { _httpMessage?: InFlight | null; parser?: { incoming?: { complete?: boolean } | null } | null };

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
export function parserRefusal(router: Router, err: Pick<ParserError, 'code' | 'rawPacket'>, pending?: string): RouterAnswer {
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

/**
 * Where the request the parser refused starts in `packet`, when a complete request came before it in
 * the same bytes. The parser stops at the first byte no request can have there: inside the method (the
 * bytes before it are a prefix of a method it knows), or later in the head, after a known method.
 */
function nextRequestIn(packet: Buffer, stoppedAt: number, code: string | undefined): Buffer {
  const before = packet.subarray(0, stoppedAt).toString('latin1');
  if (code === 'HPE_INVALID_METHOD') {
    let start = stoppedAt;
    while (start > 0 && METHODS.some((m) => m.startsWith(before.slice(start - 1)))) start--;
    return packet.subarray(start);
  }
  const lines = [...before.matchAll(new RegExp(`(?:${METHODS.join('|')}) \\S`, 'g'))];
  return packet.subarray(lines.at(-1)?.index ?? stoppedAt);
}

/** Runs `then` once the connection owes no more answers (each queued one is assigned as the one before finishes). */
function whenAnswered(socket: FrontDoorSocket, then: () => void): void {
  // A connection that failed meanwhile owes nothing: its response objects never finish.
  if (socket.destroyed) return;
  const current = socket._httpMessage;
  if (!current) {
    then();
    return;
  }
  let once = false;
  const next = () => {
    if (once) return;
    once = true;
    process.nextTick(() => whenAnswered(socket, then));
  };
  current.once('finish', next);
  current.once('close', next);
}

/** The server's `clientError` listener. */
export function clientErrorListener(router: Router, log: (line: object) => void): (err: ParserError, socket: Duplex) => void {
  // The parser stays failed: every byte that arrives after fails it again, and is not a new request.
  const refused = new WeakSet<Duplex>();
  return (err, socket: FrontDoorSocket) => {
    socket.on('error', () => undefined);
    if (CONNECTION_FAILURES.has(err.code ?? '')) return void socket.destroy();
    if (refused.has(socket)) return;
    if (!socket.writable) return void socket.destroy();
    const current = socket._httpMessage;
    if (current && (socket.parser?.incoming ?? current.req)?.complete) {
      refused.add(socket);
      // Bytes past a complete request: they are the next request, refused after the answers owed before it.
      const next = nextRequestIn(err.rawPacket ?? Buffer.alloc(0), err.bytesParsed ?? 0, err.code);
      const line = requestLineOf(next);
      // Without a request line of its own, the refusal takes the shape of the request it followed.
      const answer = parserRefusal(router, { code: err.code, rawPacket: next }, line ? undefined : current.req?.url);
      log({ level: 'INFO', message: 'request refused by the HTTP parser', code: err.code, status: answer.status, afterRequest: true });
      whenAnswered(socket, () => {
        if (socket.writable && !socket.destroyed) writeRawAnswer(socket, answer);
      });
      return;
    }
    if (current?.headersSent) return void socket.destroy();
    refused.add(socket);
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
