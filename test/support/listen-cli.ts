/**
 * What the `listen` command tests share: the app a listener forwards to (`--forward-to`), and the
 * command run as a child process of the admin CLI against a test platform, stopped with Ctrl-C.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestPlatform } from './platform';
import { waitFor } from './webhook-receiver';

export interface ForwardTarget {
  /** Every request, with its headers and exact body. */
  readonly forwarded: readonly { readonly headers: IncomingMessage['headers']; readonly body: Buffer }[];
  url(path: string): string;
  close(): Promise<void>;
}

/** A plain HTTP app on 127.0.0.1 that answers every request with `status`. */
export async function startForwardTarget(status: number): Promise<ForwardTarget> {
  const forwarded: { headers: IncomingMessage['headers']; body: Buffer }[] = [];
  const app: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      forwarded.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => app.listen(0, '127.0.0.1', () => r()));
  return {
    forwarded,
    url: (path) => `http://127.0.0.1:${(app.address() as AddressInfo).port}${path}`,
    close: () => new Promise<void>((r) => app.close(() => r())),
  };
}

export interface ListenChild {
  /** The `listening` line's fields. */
  readonly listening: Record<string, unknown>;
  /** Sends SIGINT (Ctrl-C); resolves with the exit code and everything it printed. */
  interrupt(): Promise<{ code: number | null; stdout: string }>;
}

/** `npm run admin -- <args>` against `p`; resolves once it printed its `listening` line. */
export async function spawnListen(p: TestPlatform, args: readonly string[]): Promise<ListenChild> {
  // node --import tsx rather than npm run: npm does not pass a signal sent to it alone on (a terminal signals the whole group).
  const child = spawn(process.execPath, ['--import', 'tsx', 'functions/cli/admin.ts', ...args], {
    env: { ...process.env, ADMIN_API_URL: p.baseUrl, ADMIN_TOKEN: p.adminToken },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  await waitFor(() => stdout.includes('"stop"'), 20_000, `the listening line (stderr: ${stderr})`);
  return {
    listening: (JSON.parse(stdout) as { listening: Record<string, unknown> }).listening,
    async interrupt() {
      child.kill('SIGINT');
      return { code: await exited, stdout };
    },
  };
}
