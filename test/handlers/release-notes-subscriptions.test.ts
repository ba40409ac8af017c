/**
 * The subscription routes of area D and the admin publish route over HTTP: create (201, secret once,
 * 400 for every invalid body), list and delete with the secret as bearer (404s indistinguishable),
 * the delivery log, per-IP 429, and how secrets are stored.
 */
import { randomUUID } from 'node:crypto';
import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestClock } from '../support/clock';
import { FakeResolver } from '../support/fake-resolver';
import { startTestPlatform, type TestPlatform, type TestResponse } from '../support/platform';
import { tableOf } from '../support/store';
import { RECEIVER_HOST, WebhookReceiver, waitFor } from '../support/webhook-receiver';

const SUBS = '/api/v1/release-notes/subscriptions';
const clock = new TestClock('2026-11-22T10:00:17.250Z', false);
let receiver: WebhookReceiver;
let p: TestPlatform;

async function create(body: unknown): Promise<TestResponse> {
  return p.call('POST', SUBS, { body });
}

async function created(path: string, extra: Record<string, unknown> = {}) {
  const res = await create({ callbackUrl: receiver.url(path), ...extra });
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: string; secret: string; maskedSecret: string; callbackUrl: string };
}

function expectNotFound(res: TestResponse, context: string): void {
  expect(res.status, `${context}: ${res.text}`).toBe(404);
  expect(res.body, context).toEqual({ error: { code: 'not_found', message: 'Subscription not found' } });
}

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  p = await startTestPlatform({
    clock,
    resolver: new FakeResolver().set(RECEIVER_HOST, ['127.0.0.1']),
    webhookNetwork: { allowAddresses: ['127.0.0.1'], trustedCaPem: receiver.caPem },
  });
});

afterAll(async () => {
  await p?.stop();
  await receiver?.stop();
});

beforeEach(() => {
  clock.advance(60_000);
});

describe('POST /subscriptions', () => {
  it('answers 201 with the subscription and its full secret, shown this once', async () => {
    const res = await create({ callbackUrl: receiver.url('/created'), areas: [' Chat ', 'chat', 'export'], categories: ['fix', 'feature', 'fix'] });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const data = res.body.data;
    expect(data).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      callbackUrl: receiver.url('/created'),
      areas: ['Chat', 'export'],
      categories: ['fix', 'feature'],
      isActive: true,
      maskedSecret: `whsec_********${data.secret.slice(-4)}`,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9]{40}$/),
      createdAt: '2026-11-22T10:01:17.250Z',
      updatedAt: '2026-11-22T10:01:17.250Z',
    });
    // Listing shows the masked secret only.
    const list = await p.call('GET', SUBS, { token: data.secret });
    expect(list.status).toBe(200);
    const { secret: _secret, ...withoutSecret } = data;
    expect(list.body).toEqual({ data: [withoutSecret] });
    expect(list.text).not.toContain(data.secret);
  });

  it('stores the secret only encrypted, beside its SHA-256 and its last four characters', async () => {
    const sub = await created('/stored');
    const t = tableOf(p);
    const items = (await t.db.send(new ScanCommand({ TableName: t.table }))).Items ?? [];
    const text = JSON.stringify(items);
    expect(text).not.toContain(sub.secret);
    expect(text).not.toContain(sub.secret.slice(6));
    const item = items.find((i) => i.pk === `WHSUB#${sub.id}`)!;
    expect(item.sealedSecret).toMatch(/^local1:/);
    expect(item.secretLast4).toBe(sub.secret.slice(-4));
    expect(item.secretHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['no body', undefined],
    ['malformed JSON', '{'],
    ['an array', '[]'],
    ['no callbackUrl', {}],
    ['a non-string callbackUrl', { callbackUrl: 5 }],
    ['an empty callbackUrl', { callbackUrl: '' }],
    ['plain http', { callbackUrl: 'http://hooks.example.com/x' }],
    ['a private callbackUrl', { callbackUrl: 'https://10.0.0.1/x' }],
    ['a loopback callbackUrl outside the test exception', { callbackUrl: 'https://[::1]/x' }],
    ['a host that does not resolve', { callbackUrl: 'https://unknown.example/x' }],
    ['a URL with credentials', { callbackUrl: 'https://a:b@hooks.example.com/x' }],
    ['areas not an array', { callbackUrl: 'https://hooks.example.com/x', areas: 'chat' }],
    ['a non-string area', { callbackUrl: 'https://hooks.example.com/x', areas: [1] }],
    ['too many areas', { callbackUrl: 'https://hooks.example.com/x', areas: Array.from({ length: 21 }, (_, i) => `a${i}`) }],
    ['an oversized area', { callbackUrl: 'https://hooks.example.com/x', areas: ['x'.repeat(101)] }],
    ['an unknown category', { callbackUrl: 'https://hooks.example.com/x', categories: ['bugfix'] }],
    ['categories not an array', { callbackUrl: 'https://hooks.example.com/x', categories: 'fix' }],
    ['an unknown field', { callbackUrl: 'https://hooks.example.com/x', secret: 'whsec_mine' }],
  ])('answers 400 bad_request for %s', async (_, body) => {
    const res = await p.call('POST', SUBS, body === undefined ? {} : { body });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({ error: { code: 'bad_request', message: expect.stringMatching(/^(Invalid|Missing|The JSON)/) } });
  });
});

describe('GET /subscriptions', () => {
  it('answers an empty list for a secret that matches nothing, a malformed one or none', async () => {
    const sub = await created('/listing');
    for (const token of [undefined, `whsec_${'x'.repeat(40)}`, `${sub.secret}x`, sub.secret.slice(0, -1), 'garbage']) {
      const res = await p.call('GET', SUBS, token ? { token } : {});
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [] });
    }
    expect((await p.call('GET', SUBS, { headers: { Authorization: `Basic ${sub.secret}` } })).body).toEqual({ data: [] });
  });
});

describe('DELETE /subscriptions/{id}', () => {
  it('answers the same 404 for a missing, mismatched or malformed secret and for an unknown or malformed id', async () => {
    const a = await created('/delete-a');
    const b = await created('/delete-b');
    const cases: [string, string, Record<string, string> | undefined][] = [
      ['no secret', a.id, undefined],
      ["another subscription's secret", a.id, { Authorization: `Bearer ${b.secret}` }],
      ['an unknown secret', a.id, { Authorization: `Bearer whsec_${'Z'.repeat(40)}` }],
      ['a malformed secret', a.id, { Authorization: 'Bearer nope' }],
      ['not Bearer', a.id, { Authorization: a.secret }],
      ['an unknown id', randomUUID(), { Authorization: `Bearer ${a.secret}` }],
      ['a non-UUID id', 'not-a-uuid', { Authorization: `Bearer ${a.secret}` }],
    ];
    for (const [context, id, headers] of cases) expectNotFound(await p.call('DELETE', `${SUBS}/${id}`, headers ? { headers } : {}), context);
    // Nothing was removed.
    expect((await p.call('GET', SUBS, { token: a.secret })).body.data).toHaveLength(1);
  });

  it('deletes with the matching secret: 204 with no body, and the secret then matches nothing', async () => {
    const sub = await created('/delete-me');
    const res = await p.call('DELETE', `${SUBS}/${sub.id}`, { token: sub.secret });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await p.call('GET', SUBS, { token: sub.secret })).body).toEqual({ data: [] });
    expectNotFound(await p.call('DELETE', `${SUBS}/${sub.id}`, { token: sub.secret }), 'second delete');
    const t = tableOf(p);
    const left = await t.db.send(
      new QueryCommand({ TableName: t.table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `WHSUB#${sub.id}` } }),
    );
    expect(left.Items).toEqual([]);
  });
});

describe('GET /subscriptions/{id}/deliveries', () => {
  it('lists the attempts of the subscription to its owner only: time, status, latency, no address or secret', async () => {
    receiver.script('/log', 500, 200);
    const sub = await created('/log', { areas: ['delivery log'] });
    const period = await p.admin('POST', '/release-notes/periods', {
      periodStart: '2026-08-01T00:00:00Z',
      periodEnd: '2026-08-08T00:00:00Z',
      items: [{ title: 'Delivery log', kind: 'feature' }],
    });
    expect(period.status).toBe(201);
    await waitFor(() => receiver.requests('/log').length === 2, 10_000, 'two attempts');
    await waitFor(async () => (await p.deps.deliveryLog.list(sub.id, 10)).length === 2, 5_000, 'the log');
    const res = await p.call('GET', `${SUBS}/${sub.id}/deliveries`, { token: sub.secret });
    expect(res.status).toBe(200);
    const entry = {
      periodId: period.body.data.id,
      periodStart: '2026-08-01T00:00:00.000Z',
      periodEnd: '2026-08-08T00:00:00.000Z',
      attemptedAt: expect.any(String),
      latencyMs: expect.any(Number),
    };
    expect(res.body.data).toEqual([
      { ...entry, attempt: 2, outcome: 'delivered', httpStatus: 200, error: null },
      { ...entry, attempt: 1, outcome: 'retry', httpStatus: 500, error: null },
    ]);
    expect(res.text).not.toMatch(/127\.0\.0\.1|whsec_/);

    const other = await created('/log-other');
    expectNotFound(await p.call('GET', `${SUBS}/${sub.id}/deliveries`, { token: other.secret }), 'other secret');
    expectNotFound(await p.call('GET', `${SUBS}/${sub.id}/deliveries`), 'no secret');
    expectNotFound(await p.call('GET', `${SUBS}/${randomUUID()}/deliveries`, { token: sub.secret }), 'unknown id');
  });
});

describe('per-IP limit on the subscription routes', () => {
  it('answers 429 with Retry-After once an address used up its minute', async () => {
    for (let i = 0; i < 60; i++) expect((await p.call('GET', SUBS)).status).toBe(200);
    for (const res of [await p.call('GET', SUBS), await create({ callbackUrl: receiver.url('/limited') }), await p.call('DELETE', `${SUBS}/${randomUUID()}`)]) {
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('43');
      expect(res.body.error.code).toBe('rate_limited');
    }
  });
});

describe('POST /admin/v1/release-notes/periods', () => {
  it('publishes from markdown with front matter and from JSON, and shows the parsed period', async () => {
    const md = await p.call('POST', '/admin/v1/release-notes/periods', {
      token: p.adminToken,
      headers: { 'Content-Type': 'text/markdown; charset=utf-8' },
      body: '---\nperiodStart: 2026-05-01T00:00:00Z\nperiodEnd: 2026-05-15T00:00:00Z\n---\n## Fixes\n- **Cursor**: ties\n',
    });
    expect(md.status, md.text).toBe(201);
    expect(md.body.data).toMatchObject({
      title: 'Release notes 2026-05-01 to 2026-05-15',
      periodStart: '2026-05-01T00:00:00.000Z',
      items: [{ title: 'Cursor', body: 'ties', kind: 'fix' }],
    });
    const json = await p.admin('POST', '/release-notes/periods', {
      periodStart: '2026-05-15T00:00:00Z',
      periodEnd: '2026-05-31T00:00:00Z',
      items: [{ title: 'Chat', body: 'streams', kind: 'feature' }],
    });
    expect(json.status, json.text).toBe(201);
    expect(json.body.data.markdown).toBe('## Features\n\n- **Chat**: streams\n');
    const fromMarkdown = await p.admin('POST', '/release-notes/periods', {
      periodStart: '2026-06-15T00:00:00Z',
      periodEnd: '2026-06-30T00:00:00Z',
      markdown: '## Other\n- **Docs**: moved',
    });
    expect(fromMarkdown.body.data.items).toEqual([{ title: 'Docs', body: 'moved', kind: 'other' }]);
  });

  it.each([
    ['a JSON body without periodStart', 'application/json', JSON.stringify({ periodEnd: '2026-05-15T00:00:00Z', items: [{ title: 'x', kind: 'fix' }] })],
    [
      'an end before the start',
      'application/json',
      JSON.stringify({ periodStart: '2026-05-15T00:00:00Z', periodEnd: '2026-05-01T00:00:00Z', items: [{ title: 'x', kind: 'fix' }] }),
    ],
    [
      'an unknown kind',
      'application/json',
      JSON.stringify({ periodStart: '2026-05-01T00:00:00Z', periodEnd: '2026-05-15T00:00:00Z', items: [{ title: 'x', kind: 'bug' }] }),
    ],
    ['nothing to publish', 'application/json', JSON.stringify({ periodStart: '2026-05-01T00:00:00Z', periodEnd: '2026-05-15T00:00:00Z' })],
    ['markdown without front matter', 'text/markdown', '## Fixes\n- **x**'],
    ['another content type', 'application/xml', '<period/>'],
  ])('answers 400 for %s', async (_, type, body) => {
    const res = await p.call('POST', '/admin/v1/release-notes/periods', { token: p.adminToken, headers: { 'Content-Type': type }, body });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.code).toBe('bad_request');
  });
});
