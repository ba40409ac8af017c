/**
 * A generated request as data: what the generators produce, what goes on the wire, and what a failure
 * report prints so the request can be replayed by hand. Strings are binary strings (one character per
 * byte, latin1), so raw UTF-8, NUL and invalid bytes survive as written.
 */

export type HostileClass = 'method' | 'target' | 'query' | 'header' | 'body';

/** Literal bytes, or `size` bytes made of `head`, `fill` repeated, then `tail` (megabyte bodies are described, not kept). */
export type BodySpec = { readonly bytes: string } | { readonly head: string; readonly fill: string; readonly tail: string; readonly size: number };

/** A header line; a null value writes the name alone, as a raw line (a line without a colon). */
export type HeaderLine = readonly [string, string | null];

export interface HostileRequest {
  /** The operation whose valid base request was mutated. */
  readonly op: string;
  readonly cls: HostileClass;
  /** What was mutated: the grouping key of a report. */
  readonly variant: string;
  readonly method: string;
  readonly target: string;
  /** In order, Host included; framing headers are added by `framing`. */
  readonly headers: readonly HeaderLine[];
  readonly body?: BodySpec;
  /** A Content-Length, chunked, or exactly the headers and bytes as written. */
  readonly framing: 'length' | 'chunked' | 'asWritten';
  readonly keepAlive?: boolean;
  /** Send, then end the connection: the server never gets what it was promised, and owes no answer. */
  readonly abandon?: boolean;
  /** The statuses the router contract demands for this input, on top of the generic rules. */
  readonly expect?: readonly number[];
}

const PIECE = 64 * 1024;

export function bodySize(body: BodySpec | undefined): number {
  if (!body) return 0;
  return 'bytes' in body ? body.bytes.length : body.size;
}

function* rawPieces(body: BodySpec): Generator<Buffer> {
  if ('bytes' in body) {
    for (let at = 0; at < body.bytes.length; at += PIECE) yield Buffer.from(body.bytes.slice(at, at + PIECE), 'latin1');
    return;
  }
  yield Buffer.from(body.head, 'latin1');
  const piece = Buffer.from(body.fill.repeat(Math.ceil(PIECE / body.fill.length)).slice(0, PIECE), 'latin1');
  let left = body.size - body.head.length - body.tail.length;
  for (; left >= PIECE; left -= PIECE) yield piece;
  if (left > 0) yield piece.subarray(0, left);
  yield Buffer.from(body.tail, 'latin1');
}

function* chunked(pieces: Iterable<Buffer>): Generator<Buffer> {
  for (const p of pieces) if (p.length) yield Buffer.concat([Buffer.from(`${p.length.toString(16)}\r\n`), p, Buffer.from('\r\n')]);
  yield Buffer.from('0\r\n\r\n');
}

function has(req: HostileRequest, name: string): boolean {
  return req.headers.some(([k]) => k.toLowerCase() === name);
}

/** The bytes on the wire: the head, and the body pieces framed as the request says. */
export function toWire(req: HostileRequest): { head: Buffer; body: Iterable<Buffer> } {
  const headers: HeaderLine[] = [...req.headers];
  if (!has(req, 'connection') && req.framing !== 'asWritten') headers.push(['Connection', req.keepAlive ? 'keep-alive' : 'close']);
  if (req.framing === 'length' && req.body) headers.push(['Content-Length', String(bodySize(req.body))]);
  if (req.framing === 'chunked') headers.push(['Transfer-Encoding', 'chunked']);
  const head = `${req.method} ${req.target} HTTP/1.1\r\n${headers.map(([k, v]) => (v === null ? `${k}\r\n` : `${k}: ${v}\r\n`)).join('')}\r\n`;
  const pieces = req.body ? rawPieces(req.body) : [];
  return { head: Buffer.from(head, 'latin1'), body: req.framing === 'chunked' ? chunked(pieces) : pieces };
}

/**
 * A binary string quoted as JSON, but with bytes 0x7F-0xFF as \xNN and runs of one character as ⟨'c'×n⟩,
 * so raw bytes are visible and a 20 KB value stays readable.
 */
export function compact(s: string, max = 600): string {
  const escaped = (t: string) =>
    JSON.stringify(t)
      .slice(1, -1)
      .replace(/[\u007f-\u00ff]/g, (c) => `\\x${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const out = s.replace(/(.)\1{63,}|[\s\S]/gs, (m: string) => (m.length > 1 ? `⟨'${escaped(m[0]!)}'×${m.length}⟩` : escaped(m)));
  const json = `"${out}"`;
  return json.length > max ? `${json.slice(0, max)}…(${json.length} chars)` : json;
}

/** Printable ASCII without spaces or quotes as is, anything else quoted by `compact`. */
function shown(s: string, max: number): string {
  return /^[\x21-\x7e]*$/.test(s) && !s.includes('"') && s.length <= max ? s : compact(s, max);
}

/** The request as a replayable description: request line, headers, framing and body. */
export function describeRequest(req: HostileRequest, source?: string): string {
  const size = bodySize(req.body);
  const body = !req.body
    ? 'no body'
    : 'bytes' in req.body
      ? `${size} bytes ${compact(req.body.bytes)}`
      : `${size} bytes: ${compact(req.body.head)}, ${JSON.stringify(req.body.fill)} repeated, then ${compact(req.body.tail)}`;
  const framing =
    req.framing === 'asWritten'
      ? 'framing as written'
      : `${req.framing === 'length' ? 'Content-Length' : 'chunked'}, Connection: ${req.keepAlive ? 'keep-alive' : 'close'}`;
  return [
    `${shown(req.method, 200)} ${shown(req.target, 600)} HTTP/1.1${source ? `  (from ${source})` : ''}`,
    `  headers: ${req.headers.map(([k, v]) => (v === null ? `${compact(k, 300)} (a raw line)` : `${shown(k, 200)}: ${compact(v, 300)}`)).join(', ') || '(none)'}`,
    `  body: ${body}; ${framing}${req.abandon ? '; the client ends the connection after sending' : ''}`,
  ].join('\n');
}
