/**
 * The webhook sender alone, against real TLS servers on loopback: the connection goes to the pinned
 * addresses only (never to what the hostname resolves to), certificates are checked against the
 * hostname, one deadline covers connect, TLS, headers and body, and at most 64 KiB of an answer is read.
 * Redirects, 4xx/5xx, hangs before the headers and refused connections are covered through the worker
 * in webhook-delivery.test.ts.
 */
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeHttpsWebhookSender } from '../../functions/kernel/adapters/node-https-webhook-sender';
import { selfSignedCertificate } from '../../functions/cli/self-signed-cert';
import type { WebhookRequest } from '../../functions/kernel/app/outbound-webhook-ports';
import { RECEIVER_HOST, WebhookReceiver } from '../support/webhook-receiver';

const body = new TextEncoder().encode('{"event":"ping"}');

function attempt(url: string, addresses: readonly string[], timeoutMs = 5_000): WebhookRequest {
  return { url, hostname: new URL(url).hostname, addresses, headers: { 'Content-Type': 'application/json' }, body, timeoutMs };
}

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now();
  const result = await run();
  return { result, ms: performance.now() - start };
}

async function listen<S extends Server | TcpServer>(server: S): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

describe('pinning and certificates', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver?.stop();
  });

  it('connects to the pinned address for a name no DNS knows, with SNI, certificate and Host of that name', async () => {
    const sender = new NodeHttpsWebhookSender({ trustedCaPem: receiver.caPem });
    // `webhooks.test` resolves nowhere: only the pinned address can have been used.
    expect(await sender.send(attempt(receiver.url('/pinned'), ['127.0.0.1']))).toEqual({ status: 200 });
    // Every pinned address is offered (lookup with `all`): ::1 refuses, 127.0.0.1 answers.
    expect(await sender.send(attempt(receiver.url('/pinned-all'), ['::1', '127.0.0.1']))).toEqual({ status: 200 });
    const [req] = receiver.requests('/pinned');
    expect(req).toMatchObject({ method: 'POST', headers: { host: `${RECEIVER_HOST}:${receiver.port}`, 'content-length': String(body.length) } });
    expect(req!.body.toString()).toBe('{"event":"ping"}');
  });

  it('never connects where the hostname itself resolves', async () => {
    const sender = new NodeHttpsWebhookSender({ trustedCaPem: receiver.caPem });
    // localhost resolves to this receiver's address; pinned to ::1, where nothing listens on its port.
    const url = `https://localhost:${receiver.port}/elsewhere`;
    expect(await sender.send(attempt(url, ['::1']))).toEqual({ error: 'network' });
    expect(await sender.send(attempt(url, []))).toEqual({ error: 'network' });
    expect(receiver.requests('/elsewhere')).toEqual([]);
  });

  it("classifies an untrusted certificate and a certificate for another name as 'tls', sending nothing", async () => {
    expect(await new NodeHttpsWebhookSender().send(attempt(receiver.url('/untrusted'), ['127.0.0.1']))).toEqual({ error: 'tls' });
    const other = `https://other.test:${receiver.port}/other-name`;
    expect(await new NodeHttpsWebhookSender({ trustedCaPem: receiver.caPem }).send(attempt(other, ['127.0.0.1']))).toEqual({ error: 'tls' });
    expect(receiver.requests('/untrusted')).toEqual([]);
    expect(receiver.requests('/other-name')).toEqual([]);
  });

  it('checks an IP-literal URL against the IP entries of the certificate', async () => {
    const sender = new NodeHttpsWebhookSender({ trustedCaPem: receiver.caPem });
    expect(await sender.send(attempt(`https://127.0.0.1:${receiver.port}/literal`, ['127.0.0.1']))).toEqual({ status: 200 });
  });
});

describe('deadlines and response bodies', () => {
  const cert = selfSignedCertificate('sender test');
  const sender = new NodeHttpsWebhookSender({ trustedCaPem: cert.certPem });
  /** Sockets the server side saw closed, by path. */
  const closed = new Set<string>();
  let server: Server;
  let silent: TcpServer;
  const silentSockets: Socket[] = [];
  let url: (path: string) => string;
  let silentUrl: string;

  beforeAll(async () => {
    server = createServer({ key: cert.keyPem, cert: cert.certPem }, (req: IncomingMessage, res: ServerResponse) => {
      const path = req.url ?? '/';
      res.on('close', () => closed.add(path));
      req.resume();
      if (path === '/headers-hang') return;
      res.writeHead(path === '/endless' ? 200 : 202, { 'Content-Type': 'application/octet-stream' });
      if (path === '/body-hang') return void res.write('partial');
      // An answer that never ends: written as fast as the client reads.
      const chunk = Buffer.alloc(16 * 1024, 0x61);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('error', () => undefined);
      pump();
    });
    const port = await listen(server);
    url = (path) => `https://localhost:${port}${path}`;
    // Accepts TCP and never speaks TLS.
    silent = createTcpServer((socket) => void silentSockets.push(socket.on('error', () => undefined)));
    silentUrl = `https://localhost:${await listen(silent)}/`;
  });

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    for (const s of silentSockets) s.destroy();
    await new Promise((r) => silent?.close(r));
  });

  it("gives up with 'timeout' when the TLS handshake or the headers do not come within the deadline", async () => {
    const handshake = await timed(() => sender.send(attempt(silentUrl, ['127.0.0.1'], 400)));
    expect(handshake.result).toEqual({ error: 'timeout' });
    const headers = await timed(() => sender.send(attempt(url('/headers-hang'), ['127.0.0.1'], 400)));
    expect(headers.result).toEqual({ error: 'timeout' });
    for (const { ms } of [handshake, headers]) {
      expect(ms).toBeGreaterThanOrEqual(390);
      expect(ms).toBeLessThan(2_000);
    }
  });

  it('returns the status when the body stalls, at the same deadline, and closes the connection', async () => {
    const { result, ms } = await timed(() => sender.send(attempt(url('/body-hang'), ['127.0.0.1'], 400)));
    expect(result).toEqual({ status: 202 });
    expect(ms).toBeGreaterThanOrEqual(390);
    expect(ms).toBeLessThan(2_000);
    await expect.poll(() => closed.has('/body-hang')).toBe(true);
  });

  it('stops reading an answer after 64 KiB, long before the deadline, and closes the connection', async () => {
    const { result, ms } = await timed(() => sender.send(attempt(url('/endless'), ['127.0.0.1'], 10_000)));
    expect(result).toEqual({ status: 200 });
    expect(ms).toBeLessThan(3_000);
    await expect.poll(() => closed.has('/endless')).toBe(true);
  });
});
