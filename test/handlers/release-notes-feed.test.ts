/**
 * GET /api/v1/release-notes/feed over HTTP, with periods published through the admin API: the
 * document passes a strict namespace-aware parser and a real feed reader, `area` filters as the spec
 * says, and the per-IP limit answers 429 with a Retry-After computed from the window.
 */
import Parser from 'rss-parser';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestClock } from '../support/clock';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { OCTOBER_PERIOD, publishMarkdown } from '../support/release-notes';

const FEED = '/api/v1/release-notes/feed';
// Frozen 17.25 s into a minute: a full window leaves 42.75 s, so Retry-After is 43.
const clock = new TestClock('2026-11-22T10:00:17.250Z', false);
let p: TestPlatform;

function strictlyWellFormed(xml: string): void {
  const parser = new SaxesParser({ xmlns: true });
  let error: Error | undefined;
  parser.on('error', (e) => {
    error ??= e;
  });
  parser.write(xml).close();
  if (error) throw error;
}

beforeAll(async () => {
  p = await startTestPlatform({ clock });
  await publishMarkdown(p, OCTOBER_PERIOD);
  await publishMarkdown(
    p,
    [
      '---',
      'periodStart: 2026-11-01T00:00:00Z',
      'periodEnd: 2026-11-15T00:00:00Z',
      'title: November',
      '---',
      '## Improvements',
      '- **Billing pages**: faster',
    ].join('\n'),
  );
  await publishMarkdown(
    p,
    ['---', 'periodStart: 2026-09-01T00:00:00Z', 'periodEnd: 2026-09-30T00:00:00Z', '---', 'Free-form notes about the new STREAMING limits.'].join('\n'),
  );
});

afterAll(async () => {
  await p?.stop();
});

beforeEach(() => {
  clock.advance(60_000);
});

describe('GET /feed', () => {
  it('serves RSS 2.0 that a strict parser and a feed reader accept, newest first, published at once', async () => {
    const res = await p.call('GET', FEED);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(res.headers.get('x-correlation-id')).toBeTruthy();
    strictlyWellFormed(res.text);
    expect(res.text).toContain(`<atom:link href="${p.baseUrl}${FEED}" rel="self" type="application/rss+xml"/>`);
    const feed = await new Parser().parseString(res.text);
    expect(feed.items.map((i) => i.title)).toEqual(['November', 'Release notes 2026-10-01 to 2026-10-15', 'Release notes 2026-09-01 to 2026-09-30']);
    expect(feed.items[1]!.categories).toEqual(['feature', 'fix']);
  });

  it.each([
    ['stream', ['Release notes 2026-10-01 to 2026-10-15', 'Release notes 2026-09-01 to 2026-09-30']],
    ['BILLING', ['November']],
    ['ties', ['Release notes 2026-10-01 to 2026-10-15']],
    ['limits', ['Release notes 2026-09-01 to 2026-09-30']],
    ['Features', []],
    ['nothing like this', []],
  ])('filters by area=%s (item titles and bodies, raw markdown only without items)', async (area, titles) => {
    const res = await p.call('GET', `${FEED}?area=${encodeURIComponent(area)}`);
    expect(res.status).toBe(200);
    strictlyWellFormed(res.text);
    expect((await new Parser().parseString(res.text)).items.map((i) => i.title)).toEqual(titles);
    expect(res.text).toContain(`href="${p.baseUrl}${FEED}?area=${encodeURIComponent(area).replace(/%20/g, '+')}"`);
  });

  it('treats an empty area as no filter and refuses an oversized one with 400', async () => {
    expect((await new Parser().parseString((await p.call('GET', `${FEED}?area=`)).text)).items).toHaveLength(3);
    const res = await p.call('GET', `${FEED}?area=${'x'.repeat(201)}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'bad_request', message: 'Invalid area: at most 200 characters' } });
  });

  it('shows a re-published period once, updated in place', async () => {
    await publishMarkdown(
      p,
      [
        '---',
        'periodStart: 2026-11-01T00:00:00Z',
        'periodEnd: 2026-11-15T00:00:00Z',
        'title: November (corrected)',
        '---',
        '## Improvements',
        '- **Billing pages**: faster',
      ].join('\n'),
    );
    const titles = (await new Parser().parseString((await p.call('GET', FEED)).text)).items.map((i) => i.title);
    expect(titles).toEqual(['November (corrected)', 'Release notes 2026-10-01 to 2026-10-15', 'Release notes 2026-09-01 to 2026-09-30']);
  });
});

describe('per-IP limit', () => {
  it('answers the 61st request of a minute from one address with 429 and the seconds left in the window', async () => {
    for (let i = 0; i < 60; i++) expect((await p.call('GET', FEED)).status).toBe(200);
    const limited = await p.call('GET', FEED);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('43');
    expect(limited.body).toEqual({ error: { code: 'rate_limited', message: 'Rate limit exceeded' } });
    // The window is shared by every area D route.
    const create = await p.call('POST', '/api/v1/release-notes/subscriptions', { body: { callbackUrl: 'https://hooks.example.com/x' } });
    expect(create.status).toBe(429);
    expect((await p.call('GET', '/api/v1/release-notes/subscriptions')).status).toBe(429);
    clock.advance(60_000);
    expect((await p.call('GET', FEED)).status).toBe(200);
  });
});
