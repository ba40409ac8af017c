/**
 * Helpers for `POST /api/v1/chat/files`: uploads as a client sends them (FormData through fetch), raw
 * multipart bodies for the malformed cases, and a raw HTTP client that sees how much of a body the
 * server read before it answered.
 */
import { request } from 'node:http';
import type { S3Client } from '@aws-sdk/client-s3';
import type { TestPlatform, TestResponse } from './platform';

export const FILES = '/api/v1/chat/files';
export const MiB = 1024 * 1024;

async function toResponse(res: Response): Promise<TestResponse> {
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** Uploads one file the way a browser or SDK does (multipart/form-data built by fetch). */
export async function upload(
  p: Pick<TestPlatform, 'baseUrl'>,
  token: string | undefined,
  file: { name: string; bytes: Uint8Array; part?: string; type?: string },
  headers: Record<string, string> = {},
): Promise<TestResponse> {
  const form = new FormData();
  form.append(file.part ?? 'file', new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }), file.name);
  const res = await fetch(p.baseUrl + FILES, { method: 'POST', headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers }, body: form });
  return toResponse(res);
}

/** An upload that must succeed; returns its 201 body. */
export async function uploaded(p: Pick<TestPlatform, 'baseUrl'>, token: string, name: string, bytes: Uint8Array, headers: Record<string, string> = {}) {
  const res = await upload(p, token, { name, bytes }, headers);
  if (res.status !== 201) throw new Error(`upload of ${name}: ${res.status} ${res.text}`);
  return res.body as { fileId: string; fileName: string; mimeType: string; size: number };
}

export interface Part {
  readonly name: string;
  readonly filename?: string;
  readonly contentType?: string;
  readonly data: Uint8Array | string;
}

/** A multipart/form-data body written by hand (for shapes no FormData produces). */
export function multipart(parts: readonly Part[], boundary = 'test-boundary-7f3a'): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.contentType ? `Content-Type: ${part.contentType}\r\n` : ''}\r\n`));
    chunks.push(Buffer.from(part.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function rawUpload(
  p: Pick<TestPlatform, 'baseUrl'>,
  token: string | undefined,
  body: Uint8Array | string,
  contentType: string | undefined,
): Promise<TestResponse> {
  const headers: Record<string, string> = { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(contentType ? { 'Content-Type': contentType } : {}) };
  return toResponse(await fetch(p.baseUrl + FILES, { method: 'POST', headers, body }));
}

export interface StreamedUploadResult {
  readonly status: number;
  readonly body: string;
  /** Bytes of the body the client had handed to the socket when the answer arrived. */
  readonly sentBeforeAnswer: number;
  readonly totalBytes: number;
}

/**
 * Sends a request body piece by piece over a raw HTTP connection (chunked, or with the given
 * Content-Length) and stops writing as soon as the answer arrives: for servers that refuse a body
 * before it is all sent. `next` gives the next piece, or undefined once the body is complete.
 */
export function sendUntilAnswered(
  url: URL,
  headers: Record<string, string>,
  opts: { readonly totalBytes: number; readonly declareLength: boolean; readonly next: () => Buffer | undefined },
): Promise<StreamedUploadResult> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { ...headers, ...(opts.declareLength ? { 'Content-Length': String(opts.totalBytes) } : { 'Transfer-Encoding': 'chunked' }) },
      },
      (res) => {
        answered = true;
        const sentBeforeAnswer = sent;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sentBeforeAnswer, totalBytes: opts.totalBytes }));
        res.on('error', reject);
      },
    );
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const pump = () => {
      while (!answered && !req.destroyed) {
        const piece = opts.next();
        if (!piece) return void req.end();
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
    };
    pump();
  });
}

/**
 * Streams a multipart body of `fileBytes` filler bytes (PNG signature first) in 64 KiB chunks over a
 * raw HTTP connection, chunked or with a Content-Length, and stops writing once the answer arrives.
 */
export function streamedUpload(
  p: Pick<TestPlatform, 'baseUrl'>,
  token: string,
  opts: { fileBytes: number; declareLength: boolean; fileName?: string },
): Promise<StreamedUploadResult> {
  const boundary = 'stream-boundary-91c2';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${opts.fileName ?? 'big.png'}"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 0x41);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let fileLeft = opts.fileBytes;
  let stage: 'head' | 'file' | 'tail' | 'done' = 'head';
  const next = (): Buffer | undefined => {
    if (stage === 'head') {
      stage = 'file';
      const first = Math.min(8, fileLeft);
      fileLeft -= first;
      return Buffer.concat([head, signature.subarray(0, first)]);
    }
    if (stage === 'file' && fileLeft > 0) {
      const piece = chunk.subarray(0, Math.min(chunk.length, fileLeft));
      fileLeft -= piece.length;
      return piece;
    }
    if (stage !== 'done') {
      stage = 'done';
      return tail;
    }
    return undefined;
  };
  return sendUntilAnswered(
    new URL(p.baseUrl + FILES),
    { Authorization: `Bearer ${token}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    { totalBytes: head.length + opts.fileBytes + tail.length, declareLength: opts.declareLength, next },
  );
}

/** An S3 request as it leaves the client (after signing): its command and the payload hash the signature covers. */
export interface SentS3Call {
  readonly command: string;
  readonly payloadHash: string | undefined;
}

/** Records every request `s3` sends from now on, in order, into the returned list. */
export function recordS3Calls(s3: S3Client): SentS3Call[] {
  const sent: SentS3Call[] = [];
  s3.middlewareStack.add(
    (next, context) => async (args) => {
      const headers = (args.request as { headers: Record<string, string> }).headers;
      sent.push({ command: String(context.commandName).replace(/Command$/, ''), payloadHash: headers['x-amz-content-sha256'] });
      return next(args);
    },
    { step: 'deserialize', name: `test-s3-calls-${Math.random().toString(36).slice(2)}` },
  );
  return sent;
}
