/**
 * One HTTP/1.1 exchange over a raw TCP socket: the bytes go out exactly as given (fetch and node:http
 * refuse or repair most of what the fuzzer sends), and the answer is parsed just enough to judge it.
 * A reset, a timeout or a connection closed before a complete answer is "no answer", with what was
 * received so far: a client that gets nothing back is a failure, whatever the server meant to say.
 */
import { connect } from 'node:net';

export interface RawExchange {
  readonly host: string;
  readonly port: number;
  /** Loopback source address, so per-IP rate limits see many clients. */
  readonly localAddress?: string;
  /** Request line, headers and the empty line, exactly as sent. */
  readonly head: Buffer;
  /** Body pieces, already framed (chunk-encoded when the head says so). */
  readonly body?: Iterable<Buffer>;
  /** End our side after the body: a client that gives up mid-request. */
  readonly halfClose?: boolean;
  /** The answer to HEAD has headers only. */
  readonly isHead?: boolean;
  readonly timeoutMs: number;
}

export interface RawAnswer {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer;
}

export interface NoAnswer {
  readonly error: string;
}

export function isAnswer(a: RawAnswer | NoAnswer): a is RawAnswer {
  return 'status' in a;
}

/** The first value of a header, by case-insensitive name. */
export function headerValue(answer: RawAnswer, name: string): string | undefined {
  const lower = name.toLowerCase();
  return answer.headers.find(([k]) => k.toLowerCase() === lower)?.[1];
}

interface Head {
  readonly status: number;
  readonly headers: [string, string][];
  readonly size: number;
}

function parseHead(buf: Buffer): Head | undefined {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0] ?? '');
  if (!m) throw new Error(`not an HTTP status line: ${JSON.stringify(lines[0]?.slice(0, 100))}`);
  const headers = lines.slice(1).map((l): [string, string] => {
    const colon = l.indexOf(':');
    return [l.slice(0, colon).trim(), l.slice(colon + 1).trim()];
  });
  const status = Number(m[1]);
  return { status, headers, size: end + 4 };
}

/** The decoded body and the bytes it took, once `rest` holds a whole chunked body, else undefined. */
function dechunk(rest: Buffer): { body: Buffer; size: number } | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = rest.indexOf('\r\n', at);
    if (eol < 0) return undefined;
    const size = parseInt(rest.subarray(at, eol).toString('latin1').split(';')[0]!, 16);
    if (Number.isNaN(size)) throw new Error('malformed chunk size in the answer');
    // The last chunk, then optional trailers, then an empty line.
    if (size === 0) {
      const end = rest.indexOf('\r\n\r\n', eol);
      return end >= 0 ? { body: Buffer.concat(parts), size: end + 4 } : undefined;
    }
    if (rest.length < eol + 2 + size + 2) return undefined;
    parts.push(rest.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

export async function exchange(x: RawExchange): Promise<RawAnswer | NoAnswer> {
  const { answers, error } = await exchangeMany(x, 1);
  return answers[0] ?? { error: error ?? 'no answer' };
}

/** The answers read, in order, and why reading stopped before `count` of them (the connection's end). */
export interface RawAnswers {
  readonly answers: readonly RawAnswer[];
  readonly error?: string;
}

/** Like `exchange`, but reads up to `count` answers from the connection (pipelined requests). */
export function exchangeMany(x: RawExchange, count: number): Promise<RawAnswers> {
  return new Promise((resolve) => {
    const socket = connect({ host: x.host, port: x.port, ...(x.localAddress ? { localAddress: x.localAddress } : {}) });
    let buf: Buffer = Buffer.alloc(0);
    let head: Head | undefined;
    let settled = false;
    let socketError: string | undefined;
    const answers: RawAnswer[] = [];
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(error === undefined ? { answers } : { answers, error });
    };
    const timer = setTimeout(() => finish(`timeout after ${x.timeoutMs} ms (${buf.length} bytes received)`), x.timeoutMs);

    /** Takes each whole answer off `buf`; `closed` when the peer has closed. */
    const tryComplete = (closed: boolean) => {
      while (!settled) {
        try {
          while (!head) {
            const parsed = parseHead(buf);
            if (!parsed) return;
            buf = buf.subarray(parsed.size);
            // 1xx answers (100 Continue) precede the real one.
            if (parsed.status >= 200 || parsed.status === 101) head = parsed;
          }
        } catch (err) {
          return finish(String(err));
        }
        const h = head;
        const answer = (body: Buffer, rest: Buffer) => {
          answers.push({ status: h.status, headers: h.headers, body });
          head = undefined;
          buf = rest;
          if (answers.length >= count) finish();
        };
        const lookup = (n: string) => h.headers.find(([k]) => k.toLowerCase() === n)?.[1];
        if (x.isHead || h.status === 204 || h.status === 304) {
          answer(Buffer.alloc(0), buf);
          continue;
        }
        if (/chunked/i.test(lookup('transfer-encoding') ?? '')) {
          try {
            const body = dechunk(buf);
            if (body) {
              answer(body.body, buf.subarray(body.size));
              continue;
            }
          } catch (err) {
            return finish(String(err));
          }
        } else if (lookup('content-length') !== undefined) {
          const length = Number(lookup('content-length'));
          if (buf.length >= length) {
            answer(buf.subarray(0, length), buf.subarray(length));
            continue;
          }
        } else if (closed) {
          answer(buf, Buffer.alloc(0));
          continue;
        }
        if (closed) finish(`connection closed mid-answer (status ${h.status}, ${buf.length} body bytes)${socketError ? `: ${socketError}` : ''}`);
        return;
      }
    };

    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      tryComplete(false);
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      socketError = err.code ?? err.message;
    });
    socket.on('close', () => {
      tryComplete(true);
      finish(`connection closed${socketError ? ` (${socketError})` : ''} after ${buf.length} bytes`);
    });
    socket.on('connect', () => {
      void (async () => {
        const writable = () => !settled && !socket.destroyed && !socket.writableEnded;
        if (!writable()) return;
        socket.write(x.head);
        for (const piece of x.body ?? []) {
          // The server may answer (413) and close while we still send: stop writing, keep reading.
          if (!writable()) return;
          if (!socket.write(piece)) {
            await new Promise<void>((go) => {
              const resume = () => {
                socket.off('drain', resume);
                socket.off('close', resume);
                go();
              };
              socket.on('drain', resume);
              socket.on('close', resume);
            });
          }
        }
        if (x.halfClose && writable()) socket.end();
      })();
    });
  });
}
