/**
 * A real HTTPS webhook receiver on 127.0.0.1 with a certificate from a test CA made for this run
 * (openssl, since node:crypto cannot issue certificates). It records every request with its exact
 * bytes and arrival time, and answers each path from a script: a status, `hang` (never answers) or
 * `redirect` (302 to another path of its own). The last reply of a script repeats.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const RECEIVER_HOST = 'webhooks.test';

export type Reply = number | 'hang' | 'redirect';

export interface ReceivedRequest {
  readonly path: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body exactly as it arrived. */
  readonly body: Buffer;
  /** Wall-clock milliseconds when the request was complete. */
  readonly at: number;
}

/** A test CA and a server certificate for `RECEIVER_HOST` and 127.0.0.1: any loopback https server of a test may use them. */
export function makeCertificates(): { caPem: string; key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-ca-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  try {
    run(
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=Platform test webhook CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
    run(
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      'server.key',
      '-out',
      'server.csr',
      '-subj',
      `/CN=${RECEIVER_HOST}`,
    );
    writeFileSync(
      join(dir, 'server.ext'),
      `subjectAltName=DNS:${RECEIVER_HOST},IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n`,
    );
    run(
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.pem',
      '-days',
      '2',
      '-extfile',
      'server.ext',
    );
    return {
      caPem: readFileSync(join(dir, 'ca.pem'), 'utf8'),
      key: readFileSync(join(dir, 'server.key'), 'utf8'),
      cert: readFileSync(join(dir, 'server.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export class WebhookReceiver {
  readonly received: ReceivedRequest[] = [];
  private readonly scripts = new Map<string, Reply[]>();

  private constructor(
    private readonly server: Server,
    readonly caPem: string,
    readonly port: number,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    const { caPem, key, cert } = makeCertificates();
    let receiver: WebhookReceiver | undefined;
    const server = createServer({ key, cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
        receiver!.received.push({ path, method: req.method ?? '', headers, body: Buffer.concat(chunks), at: Date.now() });
        const reply = receiver!.next(path);
        if (reply === 'hang') return;
        if (reply === 'redirect') {
          res.writeHead(302, { Location: `https://${RECEIVER_HOST}:${receiver!.port}/redirected${path}` }).end();
          return;
        }
        res.writeHead(reply, { 'Content-Type': 'text/plain' }).end(String(reply));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    receiver = new WebhookReceiver(server, caPem, (server.address() as AddressInfo).port);
    return receiver;
  }

  /** `https://webhooks.test:<port><path>`: resolve `webhooks.test` to 127.0.0.1 in the test's resolver. */
  url(path: string): string {
    return `https://${RECEIVER_HOST}:${this.port}${path}`;
  }

  script(path: string, ...replies: Reply[]): void {
    this.scripts.set(path, replies);
  }

  requests(path: string): ReceivedRequest[] {
    return this.received.filter((r) => r.path === path);
  }

  private next(path: string): Reply {
    const queue = this.scripts.get(path);
    if (!queue || queue.length === 0) return 200;
    return queue.length > 1 ? queue.shift()! : queue[0]!;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Polls `probe` until it returns true or `timeoutMs` passes (no timed assertions: a wait with a bound). */
export async function waitFor(probe: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
