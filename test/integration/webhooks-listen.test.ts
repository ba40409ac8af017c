/**
 * `npm run admin -- webhooks listen` against the real local platform: with the development switch
 * (`PLATFORM_DEV_WEBHOOKS=1`, read by localPlatformOptions) a listener on 127.0.0.1 receives signed
 * deliveries of a period published through the admin API; the exception covers exactly that listener
 * (its port, its certificate, its URL, the workers only). Without the switch the listener is refused
 * with a message naming the switch, and a loopback callback is still 400.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCallbackUrl } from '../../functions/kernel/app/check-callback-url';
import { ListenRefused, listenForWebhooks, type RunningListener } from '../../functions/cli/webhooks-listen';
import { selfSignedCertificate } from '../../functions/cli/self-signed-cert';
import { DEV_LISTENERS_PATH, DevWebhookListeners } from '../../functions/local/dev-webhook-listeners';
import { localPlatformOptions } from '../../functions/local/main-options';
import { spawnListen, startForwardTarget } from '../support/listen-cli';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { waitFor } from '../support/webhook-receiver';

let day = 0;
/** Publishes a period (a fresh range each time) through the admin API, as `npm run admin -- period publish` does. */
async function publish(p: TestPlatform, title: string): Promise<{ id: string; periodStart: string; periodEnd: string }> {
  day++;
  const start = new Date(Date.UTC(2026, 2, 1) + day * 86_400_000).toISOString();
  const end = new Date(Date.UTC(2026, 2, 1) + (day + 1) * 86_400_000).toISOString();
  const res = await p.admin('POST', '/release-notes/periods', { periodStart: start, periodEnd: end, items: [{ title, body: 'Details ✓', kind: 'feature' }] });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

async function subscribePublicly(p: TestPlatform, callbackUrl: string): Promise<number> {
  return (await p.call('POST', '/api/v1/release-notes/subscriptions', { body: { callbackUrl } })).status;
}

function register(p: TestPlatform, body: unknown, token = p.adminToken): Promise<Response> {
  return fetch(p.baseUrl + DEV_LISTENERS_PATH, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const printed: string[] = [];
const print = (text: string) => printed.push(text);

describe('with PLATFORM_DEV_WEBHOOKS=1', () => {
  let p: TestPlatform;

  beforeAll(async () => {
    const { devWebhookListeners } = localPlatformOptions({ PLATFORM_DEV_WEBHOOKS: '1' });
    expect(devWebhookListeners).toBe(true);
    p = await startTestPlatform({ devWebhookListeners });
  });

  afterAll(async () => {
    await p?.stop();
  });

  it('delivers a published period to the listener, signed with the secret it printed; stopping deletes the subscription', async () => {
    const listener = await listenForWebhooks({ baseUrl: p.baseUrl, adminToken: p.adminToken, areas: ['listen flow'], print });
    try {
      expect(listener.callbackUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/[\w-]+$/);
      expect(listener.secret).toMatch(/^whsec_/);
      expect(JSON.parse(printed[0]!)).toEqual({
        listening: expect.objectContaining({ subscriptionId: listener.subscriptionId, secret: listener.secret, callbackUrl: listener.callbackUrl }),
      });

      const period = await publish(p, 'Listen flow works offline');
      await waitFor(() => listener.deliveries.length === 1, 10_000, 'the delivery to the listener');
      const [d] = listener.deliveries;
      expect(d).toMatchObject({ event: 'release_notes.period_published', signatureVerified: true, answered: 200 });
      // Verified again, independently of the listener's own check, on the exact bytes it received.
      expect(await verify(listener.secret, d!.body.toString('utf8'), d!.headers['x-svc-signature']!)).toBe(true);
      expect(new Webhook(listener.secret).verify(d!.body.toString('utf8'), d!.headers)).toMatchObject({
        periodStart: period.periodStart,
        periodEnd: period.periodEnd,
      });
      expect(Object.keys(d!.headers)).toEqual(
        expect.arrayContaining(['x-svc-signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type']),
      );

      // One JSON object per line, as a log shipper or `jq -c` reads it.
      expect(printed.filter((t) => t.includes('\n'))).toEqual([]);
      const out = JSON.parse(printed.at(-1)!) as { delivery: Record<string, any> };
      expect(out.delivery).toMatchObject({
        event: 'release_notes.period_published',
        answered: 200,
        body: { periodStart: period.periodStart, areas: ['Listen flow works offline'] },
      });
      expect(out.delivery.signature).toMatch(/^verified/);
      expect(out.delivery.headers['x-svc-signature']).toBe(d!.headers['x-svc-signature']);

      // The exception is not reachable through the public route, not even for the listener's own URL.
      expect(await subscribePublicly(p, listener.callbackUrl)).toBe(400);
      expect(await subscribePublicly(p, 'https://127.0.0.1:8443/hook')).toBe(400);
    } finally {
      await listener.stop();
    }
    expect(await p.deps.subscriptions.get(listener.subscriptionId)).toBeUndefined();
  });

  it('with --forward-to passes the exact body and headers on and answers with the forward status', async () => {
    const app = await startForwardTarget(202);
    const { forwarded } = app;
    const forwardTo = app.url('/webhooks');
    const listener = await listenForWebhooks({ baseUrl: p.baseUrl, adminToken: p.adminToken, areas: ['forwarded'], forwardTo, print });
    try {
      await publish(p, 'Forwarded delivery');
      await waitFor(() => listener.deliveries.length === 1 && forwarded.length === 1, 10_000, 'the forwarded delivery');
      const [d] = listener.deliveries;
      expect(d).toMatchObject({ signatureVerified: true, answered: 202, forward: { url: forwardTo, status: 202 } });
      expect(forwarded[0]!.body.equals(d!.body)).toBe(true);
      for (const h of ['x-svc-signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type', 'user-agent'])
        expect(forwarded[0]!.headers[h], h).toBe(d!.headers[h]);
      // The platform saw the forward's status as the receiver's answer.
      await waitFor(async () => (await p.deps.deliveryLog.list(listener.subscriptionId, 10)).length === 1, 5_000, 'the delivery log');
      expect(await p.deps.deliveryLog.list(listener.subscriptionId, 10)).toEqual([expect.objectContaining({ outcome: 'delivered', httpStatus: 202 })]);
    } finally {
      await listener.stop();
      await app.close();
    }
  });

  it('registers only a listener that presents the registered certificate on 127.0.0.1, with the admin token', async () => {
    const listener: RunningListener = await listenForWebhooks({ baseUrl: p.baseUrl, adminToken: p.adminToken, areas: ['nothing matches this'], print });
    try {
      const port = Number(new URL(listener.callbackUrl).port);
      const other = selfSignedCertificate('someone else');
      // Someone else's port: the certificate presented there is not the one registered.
      const stolen = await register(p, { port, certificatePem: other.certPem });
      expect(stolen.status).toBe(422);
      expect(((await stolen.json()) as any).error.code).toBe('listener_unverified');
      // Nothing listens there.
      const closed = await register(p, { port: 1, certificatePem: other.certPem });
      expect(closed.status).toBe(422);
      expect((await register(p, { port, certificatePem: other.certPem }, 'adm_wrong')).status).toBe(401);
      expect((await register(p, { port, certificatePem: 'not a certificate' })).status).toBe(400);
      expect((await register(p, { port, certificatePem: other.certPem, callbackUrl: 'https://127.0.0.1:22/' })).status).toBe(400);
    } finally {
      await listener.stop();
    }
  });

  it("gives the queue workers an exception for the registered listener's exact URL only, and only while it runs", async () => {
    // A registry of its own, behind a server of its own, so the test can look at the workers' deps.
    const registry = new DevWebhookListeners(p.deps, p.adminToken);
    const front: Server = createServer(registry.requestListener((_req, res) => void res.writeHead(404).end()));
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', () => r()));
    const { workerDeps } = registry;
    const send = (url: string) =>
      workerDeps.webhookSender.send({ url, hostname: '127.0.0.1', addresses: ['127.0.0.1'], headers: {}, body: new Uint8Array(), timeoutMs: 2_000 });
    try {
      expect(workerDeps.webhookExceptions).toEqual([]);
      expect(await checkCallbackUrl(workerDeps, 'https://127.0.0.1:8443/hook')).toMatchObject({ ok: false, reason: 'refused_address' });

      const listener = await listenForWebhooks({
        baseUrl: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
        adminToken: p.adminToken,
        areas: ['nothing matches this'],
        print,
      });
      const other = new URL(listener.callbackUrl);
      other.pathname = '/another-path';
      expect(await send(listener.callbackUrl)).toEqual({ status: 200 });
      // Same address and port, another URL; another port: refused before any connection.
      expect(await send(other.href)).toEqual({ error: 'refused_address' });
      expect(await send('https://127.0.0.1:8443/hook')).toEqual({ error: 'refused_address' });
      // The public routes' deps never change.
      expect(p.deps.webhookExceptions).toEqual([]);
      await listener.stop();
      expect(workerDeps.webhookExceptions).toEqual([]);
      expect(await send(listener.callbackUrl)).toMatchObject({ error: expect.any(String) });
      expect(await checkCallbackUrl(workerDeps, listener.callbackUrl)).toMatchObject({ ok: false, reason: 'refused_address' });
    } finally {
      await new Promise<void>((r) => front.close(() => r()));
    }
  });

  it('Ctrl-C stops `npm run admin -- webhooks listen`, deletes its subscription and exits 0', async () => {
    const child = await spawnListen(p, ['webhooks', 'listen', '--categories', 'fix']);
    const subscriptionId = child.listening.subscriptionId as string;
    expect(await p.deps.subscriptions.get(subscriptionId)).toMatchObject({ categories: ['fix'] });
    const { code, stdout } = await child.interrupt();
    expect(code).toBe(0);
    expect(stdout).toContain('"deleted":true');
    expect(await p.deps.subscriptions.get(subscriptionId)).toBeUndefined();
  });
});

describe('without the switch', () => {
  let p: TestPlatform;

  beforeAll(async () => {
    expect(localPlatformOptions({})).not.toHaveProperty('devWebhookListeners');
    p = await startTestPlatform();
  });

  afterAll(async () => {
    await p?.stop();
  });

  it('refuses the listener, telling the user to restart with PLATFORM_DEV_WEBHOOKS=1; a loopback callback is still 400', async () => {
    const attempt = listenForWebhooks({ baseUrl: p.baseUrl, adminToken: p.adminToken, print });
    await expect(attempt).rejects.toBeInstanceOf(ListenRefused);
    await expect(attempt).rejects.toThrow('PLATFORM_DEV_WEBHOOKS=1 npm start');
    // The registration path does not exist: the route table answers it like any unknown admin path.
    const res = await register(p, { port: 8443, certificatePem: selfSignedCertificate('x').certPem });
    expect(res.status).not.toBe(201);
    expect([403, 404]).toContain(res.status);
    expect(await subscribePublicly(p, 'https://127.0.0.1:8443/hook')).toBe(400);
    expect(await subscribePublicly(p, 'https://localhost:8443/hook')).toBe(400);
  });
});
