/**
 * GET /release-notes over HTTP: the public page the feed's items link to. Every item `link` of the RSS
 * feed is followed to the page, which must hold an article with that anchor and that period's text;
 * the page reads with no script, escapes what operators wrote, loads nothing from anywhere and says
 * where the feed is.
 */
import Parser from 'rss-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../support/clock';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { OCTOBER_PERIOD, publishMarkdown } from '../support/release-notes';

const FEED = '/api/v1/release-notes/feed';
let p: TestPlatform;

beforeAll(async () => {
  p = await startTestPlatform({ clock: new TestClock('2026-11-22T10:00:00.000Z', false) });
});
afterAll(() => p.stop());

describe('the public release-notes page', () => {
  it('says so when nothing is published yet', async () => {
    const res = await p.call('GET', '/release-notes');
    expect(res.status).toBe(200);
    expect(res.text).toContain('No release notes have been published yet.');
  });

  it('holds every feed item’s link as an article anchor, newest first, with its categories and text', async () => {
    await publishMarkdown(p, OCTOBER_PERIOD);
    await publishMarkdown(
      p,
      [
        '---',
        'periodStart: 2026-11-01T00:00:00Z',
        'periodEnd: 2026-11-15T00:00:00Z',
        'title: November <script>alert(1)</script>',
        '---',
        '## Improvements',
        '- **Billing pages**: faster <img src=x onerror=alert(1)>',
      ].join('\n'),
    );
    const feed = await new Parser().parseString((await p.call('GET', FEED)).text);
    expect(feed.link).toBe(`${p.baseUrl}/release-notes`);
    expect(feed.items).toHaveLength(2);
    const pages = new Map<string, string>();
    for (const item of feed.items) {
      const url = new URL(item.link!);
      expect(`${url.origin}${url.pathname}`).toBe(`${p.baseUrl}/release-notes`);
      const text = pages.get(url.pathname) ?? (await (await fetch(url)).text());
      pages.set(url.pathname, text);
      const id = decodeURIComponent(url.hash.slice(1));
      expect(id).toBe(item.guid);
      const article = new RegExp(`<article id="${id}"[^>]*>([\\s\\S]*?)</article>`).exec(text)?.[1];
      expect(article, id).toBeDefined();
      for (const category of item.categories ?? []) expect(article).toContain(`<li>${category}</li>`);
    }
    const res = await p.call('GET', '/release-notes?utm_source=newsletter');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const html = res.text;
    expect(html.indexOf('November')).toBeLessThan(html.indexOf('Streaming chat'));
    expect(html).toContain('<html lang="en">');
    expect(html).toContain(`<a href="${p.baseUrl}${FEED}">`);
    expect(html).toContain(`<link rel="alternate" type="application/rss+xml" title="Platform release notes" href="${p.baseUrl}${FEED}">`);
    expect(html).not.toMatch(/<script|<img|<[^>]*onerror=|https?:\/\/(?!127\.0\.0\.1)/i);
    expect(html).toContain('faster &lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('November &lt;script&gt;');
  });
});
