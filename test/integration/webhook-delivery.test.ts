/**
 * Webhook deliveries against a real HTTPS receiver on loopback (test CA, test-only SSRF exception):
 * signatures verified by GitHub's verifier on the exact bytes received, the retry schedule per status
 * (attempt count and spacing, with tolerances), redirects, timeouts, backfill and idempotency.
 */
import { verify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySvcSignature } from '../../functions/release-notes/domain/webhook-delivery';
import type { DeliveryAttemptRecord } from '../../functions/release-notes/app/release-notes-ports';
import { FakeResolver } from '../support/fake-resolver';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { RECEIVER_HOST, WebhookReceiver, waitFor, type Reply } from '../support/webhook-receiver';

let receiver: WebhookReceiver;
let p: TestPlatform;

interface Sub {
  readonly id: string;
  readonly secret: string;
}

async function subscribe(path: string, body: Record<string, unknown> = {}): Promise<Sub> {
  const res = await p.call('POST', '/api/v1/release-notes/subscriptions', { body: { callbackUrl: receiver.url(path), ...body } });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.data.id, secret: res.body.data.secret };
}

async function unsubscribe(sub: Sub): Promise<void> {
  const res = await p.call('DELETE', `/api/v1/release-notes/subscriptions/${sub.id}`, { token: sub.secret });
  expect(res.status).toBe(204);
}

let day = 0;
/** Publishes a period with a fresh range (later than every earlier one) and the given items. */
async function publish(items: { title: string; body?: string; kind: string }[], range?: { start: string; end: string }) {
  day++;
  const start = range?.start ?? new Date(Date.UTC(2026, 0, 1) + day * 86_400_000).toISOString();
  const end = range?.end ?? new Date(Date.UTC(2026, 0, 1) + (day + 1) * 86_400_000).toISOString();
  const res = await p.admin('POST', '/release-notes/periods', { periodStart: start, periodEnd: end, items: items.map((i) => ({ body: '', ...i })) });
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: string; periodStart: string; periodEnd: string; revision: string };
}

function logOf(sub: Sub): Promise<DeliveryAttemptRecord[]> {
  return p.deps.deliveryLog.list(sub.id, 100);
}

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  p = await startTestPlatform({
    resolver: new FakeResolver().set(RECEIVER_HOST, ['127.0.0.1']),
    webhookNetwork: { allowAddresses: ['127.0.0.1'], trustedCaPem: receiver.caPem },
  });
});

afterAll(async () => {
  await p?.stop();
  await receiver?.stop();
});

describe('a delivery', () => {
  it('is signed over the exact bytes sent: @octokit/webhooks-methods and Standard Webhooks verify it', async () => {
    // Every test filters on its own keyword: a new subscription is also backfilled with earlier periods.
    const sub = await subscribe('/signed', { areas: ['signed deliveries'] });
    const period = await publish([{ title: 'Signed deliveries', body: 'Every byte counts: ünïcödé ✓', kind: 'feature' }]);
    await waitFor(() => receiver.requests('/signed').length === 1, 10_000, 'the signed delivery');
    const [req] = receiver.requests('/signed');
    const raw = req!.body.toString('utf8');

    expect(req!.method).toBe('POST');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers.host).toBe(`${RECEIVER_HOST}:${receiver.port}`);
    expect(req!.headers['x-svc-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(await verify(sub.secret, raw, req!.headers['x-svc-signature']!)).toBe(true);
    expect(verifySvcSignature(sub.secret, req!.body, req!.headers['x-svc-signature'])).toBe(true);
    // The signature covers these bytes and no others.
    expect(await verify(sub.secret, raw.replace('Signed', 'signed'), req!.headers['x-svc-signature']!)).toBe(false);
    expect(await verify(`${sub.secret}x`, raw, req!.headers['x-svc-signature']!)).toBe(false);

    // Standard Webhooks headers beside ours, verified by that spec's own library.
    const payload = new Webhook(sub.secret).verify(raw, req!.headers) as Record<string, unknown>;
    expect(req!.headers['webhook-id']).toMatch(/^msg_/);

    const body = JSON.parse(raw) as Record<string, unknown>;
    expect(payload).toEqual(body);
    expect(Object.keys(body)).toEqual(['event', 'periodStart', 'periodEnd', 'markdown', 'categories', 'areas', 'timestamp']);
    expect(body).toMatchObject({
      event: 'release_notes.period_published',
      periodStart: period.periodStart,
      periodEnd: period.periodEnd,
      categories: ['feature'],
      areas: ['Signed deliveries'],
    });
    expect(body.markdown).toContain('Every byte counts: ünïcödé ✓');
    expect(Math.abs(Date.parse(body.timestamp as string) - req!.at)).toBeLessThan(5_000);

    // The attempt is logged once the receiver's answer is in, a moment after the receiver saw the request.
    await waitFor(async () => (await logOf(sub)).length > 0, 10_000, 'the logged attempt');
    const log = await logOf(sub);
    expect(log).toEqual([expect.objectContaining({ periodId: period.id, attempt: 1, outcome: 'delivered', httpStatus: 200 })]);
    await unsubscribe(sub);
  });
});

describe('the retry schedule', () => {
  it('retries network errors, timeouts, 408, 429 and 5xx after ~1 s then ~3 s, at most 3 attempts; drops other answers at once', async () => {
    const scripts: Record<string, Reply[]> = {
      '/r200': [200],
      '/r400': [400],
      '/r404': [404],
      '/r408': [408],
      '/r429': [429],
      '/r500': [500],
      '/r503-then-200': [503, 200],
      '/hang-then-200': ['hang', 200],
      '/redirect': ['redirect'],
    };
    const subs: Record<string, Sub> = {};
    for (const [path, replies] of Object.entries(scripts)) {
      receiver.script(path, ...replies);
      subs[path] = await subscribe(path, { areas: ['Retry schedule'] });
    }
    await publish([{ title: 'Retry schedule', kind: 'fix' }]);

    const finished = async (path: string, attempts: number) => (await logOf(subs[path]!)).length === attempts;
    const expected: Record<string, number> = {
      '/r200': 1,
      '/r400': 1,
      '/r404': 1,
      '/r408': 3,
      '/r429': 3,
      '/r500': 3,
      '/r503-then-200': 2,
      '/hang-then-200': 2,
      '/redirect': 1,
    };
    await waitFor(
      async () => (await Promise.all(Object.entries(expected).map(([path, n]) => finished(path, n)))).every(Boolean),
      30_000,
      'every delivery to finish',
    );
    // A dropped period is never delivered again: nothing more arrives.
    await new Promise((r) => setTimeout(r, 1_500));

    for (const [path, n] of Object.entries(expected)) {
      expect(receiver.requests(path), path).toHaveLength(n);
      const log = (await logOf(subs[path]!)).sort((a, b) => a.attempt - b.attempt);
      expect(
        log.map((l) => l.attempt),
        path,
      ).toEqual([1, 2, 3].slice(0, n));
    }
    const outcomes = async (path: string) => (await logOf(subs[path]!)).sort((a, b) => a.attempt - b.attempt).map((l) => [l.outcome, l.httpStatus ?? l.error]);
    expect(await outcomes('/r200')).toEqual([['delivered', 200]]);
    expect(await outcomes('/r400')).toEqual([['dropped', 400]]);
    expect(await outcomes('/r404')).toEqual([['dropped', 404]]);
    expect(await outcomes('/r408')).toEqual([
      ['retry', 408],
      ['retry', 408],
      ['dropped', 408],
    ]);
    expect(await outcomes('/r429')).toEqual([
      ['retry', 429],
      ['retry', 429],
      ['dropped', 429],
    ]);
    expect(await outcomes('/r500')).toEqual([
      ['retry', 500],
      ['retry', 500],
      ['dropped', 500],
    ]);
    expect(await outcomes('/r503-then-200')).toEqual([
      ['retry', 503],
      ['delivered', 200],
    ]);
    expect(await outcomes('/hang-then-200')).toEqual([
      ['retry', 'timeout'],
      ['delivered', 200],
    ]);
    expect(await outcomes('/redirect')).toEqual([['dropped', 302]]);
    // The redirect was not followed.
    expect(receiver.received.filter((r) => r.path.startsWith('/redirected'))).toEqual([]);

    // Spacing between arrivals: about 1 s, then about 3 s (SQS per-message delay plus polling). The
    // receiver shares the event loop with the platform, so its clock reads can lag by a few hundred ms.
    for (const path of ['/r408', '/r429', '/r500']) {
      const [a, b, c] = receiver.requests(path).map((r) => r.at);
      expect(b! - a!, `${path} 1→2`).toBeGreaterThanOrEqual(900);
      expect(b! - a!, `${path} 1→2`).toBeLessThan(2_800);
      expect(c! - b!, `${path} 2→3`).toBeGreaterThanOrEqual(2_900);
      expect(c! - b!, `${path} 2→3`).toBeLessThan(4_800);
      // The worker's own view: the next attempt starts at least the delay after the previous one ended.
      const [l1, l2, l3] = (await logOf(subs[path]!)).sort((x, y) => x.attempt - y.attempt);
      expect((l2!.attemptedAtUs - l1!.attemptedAtUs) / 1000 - l1!.latencyMs, `${path} worker 1→2`).toBeGreaterThanOrEqual(1_000);
      expect((l3!.attemptedAtUs - l2!.attemptedAtUs) / 1000 - l2!.latencyMs, `${path} worker 2→3`).toBeGreaterThanOrEqual(3_000);
    }
    // A receiver that never answers is cut off after 10 s; the retry follows about 1 s later.
    const hang = (await logOf(subs['/hang-then-200']!)).find((l) => l.attempt === 1)!;
    expect(hang.latencyMs).toBeGreaterThanOrEqual(9_900);
    expect(hang.latencyMs).toBeLessThan(11_500);
    const [h1, h2] = receiver.requests('/hang-then-200').map((r) => r.at);
    expect(h2! - h1!).toBeGreaterThanOrEqual(10_400);
    expect(h2! - h1!).toBeLessThan(13_500);

    for (const sub of Object.values(subs)) await unsubscribe(sub);
  }, 60_000);

  it('treats a host that stops resolving as a network error (retried), and a connection refused the same way', async () => {
    const resolver = new FakeResolver().set('gone.test', ['127.0.0.1'], 'not_found');
    const q = await startTestPlatform({ resolver, webhookNetwork: { allowAddresses: ['127.0.0.1'] } });
    try {
      const created = await q.call('POST', '/api/v1/release-notes/subscriptions', { body: { callbackUrl: 'https://gone.test:9/hook' } });
      expect(created.status).toBe(201);
      const closed = await q.call('POST', '/api/v1/release-notes/subscriptions', { body: { callbackUrl: 'https://127.0.0.1:9/closed' } });
      expect(closed.status).toBe(201);
      await q.admin('POST', '/release-notes/periods', {
        periodStart: '2026-03-01T00:00:00Z',
        periodEnd: '2026-03-02T00:00:00Z',
        items: [{ title: 'x', kind: 'other' }],
      });
      const done = async (id: string) => (await q.deps.deliveryLog.list(id, 10)).length === 3;
      await waitFor(async () => (await done(created.body.data.id)) && (await done(closed.body.data.id)), 15_000, 'three attempts each');
      const errors = async (id: string) => (await q.deps.deliveryLog.list(id, 10)).sort((a, b) => a.attempt - b.attempt).map((l) => [l.outcome, l.error]);
      expect(await errors(created.body.data.id)).toEqual([
        ['retry', 'dns'],
        ['retry', 'dns'],
        ['dropped', 'dns'],
      ]);
      expect(await errors(closed.body.data.id)).toEqual([
        ['retry', 'network'],
        ['retry', 'network'],
        ['dropped', 'network'],
      ]);
    } finally {
      await q.stop();
    }
  });
});

describe('backfill, re-publishing and duplicates', () => {
  it('backfills the 5 most recent matching periods through the same signed path', async () => {
    const published = [];
    for (let i = 0; i < 8; i++) {
      const kind = i % 4 === 3 ? 'other' : 'fix';
      published.push({ kind, ...(await publish([{ title: `Backfill ${i}`, body: i === 6 ? 'mentions Billing' : 'plain', kind }])) });
    }
    const sub = await subscribe('/backfill', { areas: ['backfill'], categories: ['fix'] });
    const matching = published
      .filter((x) => x.kind === 'fix')
      .reverse()
      .slice(0, 5);
    await waitFor(() => receiver.requests('/backfill').length >= 5, 10_000, 'the backfill');
    await new Promise((r) => setTimeout(r, 500));
    const got = receiver.requests('/backfill');
    expect(got).toHaveLength(5);
    expect(got.map((r) => JSON.parse(r.body.toString()).periodStart).sort()).toEqual(matching.map((m) => m.periodStart).sort());
    for (const r of got) expect(await verify(sub.secret, r.body.toString('utf8'), r.headers['x-svc-signature']!)).toBe(true);

    // The area filter, on item bodies, case-insensitively.
    const byArea = await subscribe('/backfill-area', { areas: ['BILLING'] });
    await waitFor(() => receiver.requests('/backfill-area').length >= 1, 10_000, 'the area backfill');
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.requests('/backfill-area').map((r) => JSON.parse(r.body.toString()).areas)).toEqual([['Backfill 6']]);
    await unsubscribe(sub);
    await unsubscribe(byArea);
  });

  it('delivers each (subscription, period, revision, attempt) once: a duplicate message or an unchanged re-publish sends nothing more', async () => {
    const sub = await subscribe('/once', { areas: ['once'] });
    const range = { start: '2027-05-01T00:00:00Z', end: '2027-05-08T00:00:00Z' };
    const period = await publish([{ title: 'Once', kind: 'feature' }], range);
    await waitFor(() => receiver.requests('/once').length === 1, 10_000, 'the first delivery');
    // The same message again (SQS delivers at least once), and the same period published again.
    await p.deps.webhookQueue.send([{ type: 'deliver', subscriptionId: sub.id, periodId: period.id, revision: period.revision, attempt: 1 }]);
    const again = await publish([{ title: 'Once', kind: 'feature' }], range);
    expect(again.id).toBe(period.id);
    expect(again.revision).toBe(period.revision);
    await p.drainQueues();
    await new Promise((r) => setTimeout(r, 1_000));
    expect(receiver.requests('/once')).toHaveLength(1);

    // A changed period (same range, same id) is a new revision: delivered again.
    const changed = await publish([{ title: 'Once, corrected', kind: 'feature' }], range);
    expect(changed.id).toBe(period.id);
    expect(changed.revision).not.toBe(period.revision);
    await waitFor(() => receiver.requests('/once').length === 2, 10_000, 'the corrected delivery');
    expect(JSON.parse(receiver.requests('/once')[1]!.body.toString()).areas).toEqual(['Once, corrected']);
    await unsubscribe(sub);
  });

  it('stops delivering to a deleted subscription and forgets its log', async () => {
    receiver.script('/deleted', 500);
    const sub = await subscribe('/deleted', { areas: ['deleted soon'] });
    await publish([{ title: 'Deleted soon', kind: 'fix' }]);
    await waitFor(() => receiver.requests('/deleted').length === 1, 10_000, 'the first attempt');
    await unsubscribe(sub);
    await new Promise((r) => setTimeout(r, 2_500));
    expect(receiver.requests('/deleted')).toHaveLength(1);
    expect(await logOf(sub)).toEqual([]);
  });
});
