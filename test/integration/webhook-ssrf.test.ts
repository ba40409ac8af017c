/**
 * The SSRF policy at both checkpoints, with the production policy (no exceptions) and a fake DNS:
 * every hostile callback URL and every hostile DNS answer (ADR 0011) is refused when
 * subscribing, and again at delivery time: a host that answered with a public address when the
 * subscription was made and with an internal one afterwards (DNS rebinding), and a hostile URL that is
 * already stored, are refused before any connection is made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../functions/release-notes/domain/webhook-subscription';
import { TestClock } from '../support/clock';
import { FakeResolver } from '../support/fake-resolver';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { waitFor } from '../support/webhook-receiver';

/** A public address for the first (subscribe-time) answer of rebinding hosts; never connected to. */
const PUBLIC_V4 = '93.184.215.14';
const PUBLIC_V6 = '2606:4700:4700::1111';

/** Callback URLs refused by the URL rules or by the address of their IP literal. */
const HOSTILE_URLS: readonly (readonly [string, string])[] = [
  ['loopback', 'https://127.0.0.1/hook'],
  ['short form 127.1', 'https://127.1/hook'],
  ['decimal 2130706433', 'https://2130706433/hook'],
  ['hex 0x7f.0.0.1', 'https://0x7f.0.0.1/hook'],
  ['octal 0177.0.0.1', 'https://0177.0.0.1/hook'],
  ['full-width digits', 'https://１２７.０.０.１/hook'],
  ['ideographic full stops', 'https://127。0。0。1/hook'],
  ['trailing dot', 'https://127.0.0.1./hook'],
  ['zero host', 'https://0/hook'],
  ['unspecified', 'https://0.0.0.0/hook'],
  ['private 10/8', 'https://10.0.0.1/hook'],
  ['private 172.16/12', 'https://172.16.5.4/hook'],
  ['private 192.168/16', 'https://192.168.1.1/hook'],
  ['CGNAT 100.64/10', 'https://100.64.0.1/hook'],
  ['link-local', 'https://169.254.10.10/hook'],
  ['cloud metadata', 'https://169.254.169.254/latest/meta-data/'],
  ['multicast', 'https://224.0.0.1/hook'],
  ['broadcast', 'https://255.255.255.255/hook'],
  ['documentation', 'https://192.0.2.10/hook'],
  ['reserved 240/4', 'https://240.0.0.1/hook'],
  ['IPv6 loopback', 'https://[::1]/hook'],
  ['IPv6 unspecified', 'https://[::]/hook'],
  ['IPv6 link-local', 'https://[fe80::1]/hook'],
  ['IPv6 unique-local', 'https://[fd12:3456::1]/hook'],
  ['IPv6 documentation', 'https://[2001:db8::1]/hook'],
  ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook'],
  ['IPv4-mapped metadata (hex)', 'https://[::ffff:a9fe:a9fe]/hook'],
  ['IPv4-compatible loopback', 'https://[::7f00:1]/hook'],
  ['NAT64 of loopback', 'https://[64:ff9b::7f00:1]/hook'],
  ['NAT64 of a public address', 'https://[64:ff9b::5db8:d70e]/hook'],
  ['6to4 of loopback', 'https://[2002:7f00:1::1]/hook'],
  ['Teredo of loopback', 'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook'],
  ['plain http', 'http://example.com/hook'],
  ['userinfo', 'https://user:pass@example.com/hook'],
  ['userinfo hiding the host', 'https://example.com@127.0.0.1/hook'],
  ['fragment', 'https://example.com/hook#x'],
  ['empty fragment', 'https://example.com/hook#'],
  ['backslash', 'https://example.com\\@127.0.0.1/hook'],
  ['tab inside the host', 'https://exam\tple.com/hook'],
  ['newline', 'https://example.com/ho\nok'],
  ['NUL', 'https://example.com/\u0000'],
  ['javascript scheme', 'javascript:alert(1)'],
  ['file scheme', 'file:///etc/passwd'],
  ['not a URL', 'not a url'],
];

/** Host names whose DNS answers are hostile (every answer must be public unicast). */
const HOSTILE_ANSWERS: readonly (readonly [string, readonly string[]])[] = [
  ['loopback', ['127.0.0.1']],
  ['loopback elsewhere in 127/8', ['127.53.0.1']],
  ['IPv6 loopback', ['::1']],
  ['private', ['10.1.2.3']],
  ['public and private mixed', [PUBLIC_V4, '192.168.0.10']],
  ['public IPv6 and loopback mixed', [PUBLIC_V6, '::1']],
  ['CGNAT', ['100.100.100.100']],
  ['link-local', ['169.254.0.5']],
  ['cloud metadata', ['169.254.169.254']],
  ['IPv6 link-local', ['fe80::abcd']],
  ['IPv6 unique-local', ['fc00::5']],
  ['IPv4-mapped private', ['::ffff:10.0.0.1']],
  ['NAT64 of private', ['64:ff9b::a00:1']],
  ['6to4 of private', ['2002:a00:1::1']],
  ['Teredo of private', ['2001:0:4136:e378:8000:63bf:f5ff:fffe']],
  ['unspecified', ['0.0.0.0']],
  ['no address at all', []],
];

const clock = new TestClock();
const resolver = new FakeResolver();
let p: TestPlatform;

/** Each request in a fresh per-IP window: this file sends more than one window's worth. */
async function subscribe(callbackUrl: string) {
  clock.advance(60_000);
  return p.call('POST', '/api/v1/release-notes/subscriptions', { body: { callbackUrl } });
}

beforeAll(async () => {
  p = await startTestPlatform({ resolver, clock });
});

afterAll(async () => {
  await p?.stop();
});

describe('at subscribe time', () => {
  it.each(HOSTILE_URLS)('refuses %s', async (_, url) => {
    const res = await subscribe(url);
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({ error: { code: 'bad_request', message: expect.stringMatching(/^Invalid callbackUrl: /) } });
  });

  it.each(HOSTILE_ANSWERS)('refuses a host resolving to %s', async (name, answer) => {
    const host = `${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.subscribe.test`;
    resolver.set(host, answer);
    const res = await subscribe(`https://${host}/hook`);
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.message).toMatch(/^Invalid callbackUrl: /);
    // The message names the rule, never the address the host resolved to.
    for (const address of answer) expect(res.text).not.toContain(address);
  });

  it('refuses a host that does not resolve, and answers 503 when DNS fails for now', async () => {
    expect((await subscribe('https://nowhere.test/hook')).status).toBe(400);
    resolver.set('flaky.test', 'temporary');
    const res = await subscribe('https://flaky.test/hook');
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('unavailable');
  });

  it('accepts a host whose every answer is public unicast, and stores the normalized URL', async () => {
    resolver.set('public.test', [PUBLIC_V4, PUBLIC_V6], ['10.0.0.1']);
    const res = await subscribe('https://PUBLIC.test:8443/hooks/a?x=1');
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.callbackUrl).toBe('https://public.test:8443/hooks/a?x=1');
  });
});

describe('at delivery time', () => {
  it('refuses every hostile answer to a host that resolved publicly when subscribing (DNS rebinding), before connecting', async () => {
    const subs: { name: string; id: string }[] = [];
    for (const [name, answer] of HOSTILE_ANSWERS) {
      const host = `${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.rebind.test`;
      // First lookup (subscribe): public. Every later lookup (delivery): hostile.
      resolver.set(host, name.includes('IPv6') ? [PUBLIC_V6] : [PUBLIC_V4], answer);
      const res = await subscribe(`https://${host}/hook`);
      expect(res.status, `${name}: ${res.text}`).toBe(201);
      subs.push({ name, id: res.body.data.id });
    }
    const published = await p.admin('POST', '/release-notes/periods', {
      periodStart: '2026-06-01T00:00:00Z',
      periodEnd: '2026-06-08T00:00:00Z',
      items: [{ title: 'Rebinding', kind: 'fix' }],
    });
    expect(published.status).toBe(201);
    const logs = async () => Promise.all(subs.map((s) => p.deps.deliveryLog.list(s.id, 10)));
    await waitFor(async () => (await logs()).every((l) => l.length === 1), 15_000, 'one attempt per subscription');
    const all = await logs();
    subs.forEach((s, i) => {
      expect(all[i], s.name).toEqual([expect.objectContaining({ attempt: 1, outcome: 'dropped', error: 'refused_address' })]);
      expect(all[i]![0]!.httpStatus, s.name).toBeUndefined();
    });
  });

  it('refuses hostile URLs that are already stored (checked again at every attempt)', async () => {
    const now = Date.now() * 1000;
    const stored: { name: string; id: string }[] = [];
    for (const [name, url] of HOSTILE_URLS) {
      const id = crypto.randomUUID();
      const secret = `whsec_${'A'.repeat(36)}${String(stored.length).padStart(4, '0')}`;
      await p.deps.subscriptions.create({
        id,
        callbackUrl: url,
        areas: ['stored hostile'],
        categories: [],
        isActive: true,
        secretHash: hashSecret(secret),
        secretLast4: secret.slice(-4),
        sealedSecret: await p.deps.secrets.seal(secret, { subscriptionId: id }),
        createdAtUs: now,
        updatedAtUs: now,
      });
      stored.push({ name, id });
    }
    const published = await p.admin('POST', '/release-notes/periods', {
      periodStart: '2026-07-01T00:00:00Z',
      periodEnd: '2026-07-08T00:00:00Z',
      items: [{ title: 'Stored hostile URLs', kind: 'other' }],
    });
    expect(published.status).toBe(201);
    const logs = async () => Promise.all(stored.map((s) => p.deps.deliveryLog.list(s.id, 10)));
    await waitFor(async () => (await logs()).every((l) => l.length === 1), 15_000, 'one attempt per stored subscription');
    const all = await logs();
    stored.forEach((s, i) => {
      expect(all[i], s.name).toEqual([
        expect.objectContaining({ attempt: 1, outcome: 'dropped', error: expect.stringMatching(/^(refused_address|invalid_url)$/) }),
      ]);
    });
  });
});
