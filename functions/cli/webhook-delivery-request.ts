/**
 * One delivery request as `webhooks listen` receives it: its headers, its body (bounded), and the exact
 * body and headers passed on to `--forward-to`.
 */
import type { IncomingMessage } from 'node:http';

/** What a receiver forwards: everything but the hop-by-hop and framing headers fetch sets itself. */
const NOT_FORWARDED = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'upgrade', 'expect']);
/** Below the platform's 10 s delivery timeout, so a slow forward is still answered (502). */
const FORWARD_TIMEOUT_MS = 9_000;
const MAX_BODY_BYTES = 1024 * 1024;

export function headersOf(req: IncomingMessage): Record<string, string> {
  return Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
}

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) req.destroy(new Error('body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function forward(url: string, req: IncomingMessage, body: Buffer): Promise<{ status?: number; error?: string }> {
  const headers: [string, string][] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (!NOT_FORWARDED.has(req.rawHeaders[i]!.toLowerCase())) headers.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
  }
  try {
    const res = await fetch(url, { method: req.method ?? 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS) });
    await res.arrayBuffer().catch(() => undefined);
    return { status: res.status };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

export function parsedBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return body.toString('utf8');
  }
}
