/**
 * A real HTTPS file server on 127.0.0.1 for the Responses API's file URLs, with a certificate from a
 * test CA made for this run (test/support/webhook-receiver.ts makes it, for `webhooks.test` and
 * 127.0.0.1). Each path answers a scripted file, status, redirect, a body that never ends (`endless`:
 * 64 KiB chunks for as long as the client reads) or nothing at all (`hang`). It counts what it sent.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { makeCertificates, RECEIVER_HOST } from './webhook-receiver';

export type Served =
  | { readonly body: Uint8Array; readonly contentType?: string; readonly status?: number }
  | { readonly redirect: string }
  | 'endless'
  | 'hang';

export class FileServer {
  private readonly files = new Map<string, Served>();
  /** Bytes of body written per path (its last request), and whether the client closed the connection before the end. */
  readonly sent = new Map<string, { bytes: number; closedEarly: boolean }>();
  /** Requests per path. */
  readonly hits = new Map<string, number>();

  private constructor(
    private readonly server: Server,
    readonly caPem: string,
    readonly port: number,
  ) {}

  static async start(): Promise<FileServer> {
    const { caPem, key, cert } = makeCertificates();
    let files: FileServer | undefined;
    const server = createServer({ key, cert }, (req, res) => files!.answer(req.url ?? '/', res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    files = new FileServer(server, caPem, (server.address() as AddressInfo).port);
    return files;
  }

  /** `https://webhooks.test:<port><path>`: resolve `webhooks.test` to 127.0.0.1 in the test's resolver. */
  url(path: string): string {
    return `https://${RECEIVER_HOST}:${this.port}${path}`;
  }

  serve(path: string, served: Served): this {
    this.files.set(path, served);
    return this;
  }

  private answer(path: string, res: import('node:http').ServerResponse): void {
    this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
    const served: Served = this.files.get(path) ?? { status: 404, body: Buffer.from('not found') };
    if (served === 'hang') return;
    const sent = { bytes: 0, closedEarly: false };
    this.sent.set(path, sent);
    if (served === 'endless') {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      res.on('close', () => {
        sent.closedEarly = !res.writableFinished;
      });
      const pump = () => {
        while (!res.destroyed && sent.bytes < 200 * 1024 * 1024) {
          sent.bytes += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
      return;
    }
    if ('redirect' in served) {
      res.writeHead(302, { Location: this.url(served.redirect) }).end();
      return;
    }
    sent.bytes = served.body.length;
    res.writeHead(served.status ?? 200, served.contentType ? { 'Content-Type': served.contentType } : {}).end(Buffer.from(served.body));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
