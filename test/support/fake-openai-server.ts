/**
 * A small OpenAI-compatible chat-completions server on loopback: records every request it receives and
 * answers each with the next scripted reply (a JSON body, an SSE stream or an error status).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeReply =
  | { readonly kind: 'json'; readonly body: unknown }
  | { readonly kind: 'sse'; readonly events: readonly unknown[]; readonly splitAt?: number }
  | { readonly kind: 'error'; readonly status: number; readonly body: string };

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: any;
}

export interface FakeOpenAiServer {
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** Queues replies; with none queued the server answers 500. */
  reply(...replies: FakeReply[]): void;
  close(): Promise<void>;
}

/** The SSE wire text of `events`, each as one `data:` line, ending with `data: [DONE]`. */
export function sseText(events: readonly unknown[]): string {
  return `${events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')}data: [DONE]\n\n`;
}

export async function startFakeOpenAiServer(): Promise<FakeOpenAiServer> {
  const requests: RecordedRequest[] = [];
  const queue: FakeReply[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: text ? JSON.parse(text) : undefined });
      const next = queue.shift();
      if (!next) {
        res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"error":{"message":"no reply scripted"}}');
      } else if (next.kind === 'json') {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(next.body));
      } else if (next.kind === 'error') {
        res.writeHead(next.status, { 'Content-Type': 'application/json' }).end(next.body);
      } else {
        // Written in two pieces cut mid-line, so the client has to buffer partial lines. The pause only
        // keeps the pieces from being coalesced into one read; correctness never depends on it.
        const wire = sseText(next.events);
        const at = next.splitAt ?? Math.floor(wire.length / 2);
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.write(wire.slice(0, at), () => setTimeout(() => res.end(wire.slice(at)), 20));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (...replies) => queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
