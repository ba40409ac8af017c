/**
 * The feed against the RSS 2.0 rules feed validators enforce, read by a strict namespace-aware XML parser
 * (saxes with xmlns: it rejects what XML 1.0 forbids) and by a real feed reader (rss-parser).
 */
import Parser from 'rss-parser';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { describe, expect, it } from 'vitest';
import { buildPeriod, type PeriodDraft } from '../../functions/release-notes/domain/release-notes';
import { ATOM_NS, CONTENT_NS, cdata, escapeXml, renderRssFeed, xmlSafe } from '../../functions/release-notes/domain/rss-feed';
import { parseIsoToMicros } from '../../functions/kernel/domain/time';

const us = (iso: string) => parseIsoToMicros(iso)!;
const CHANNEL = {
  selfUrl: 'https://api.example.com/api/v1/release-notes/feed?area=chat&x=1',
  pageUrl: 'https://api.example.com/api/v1/release-notes/feed',
  title: 'Platform release notes',
  description: 'Changes',
};

function period(start: string, end: string, over: Partial<PeriodDraft> = {}) {
  return buildPeriod({ periodStartUs: us(start), periodEndUs: us(end), markdown: '', items: [], ...over }, us(end));
}

const HOSTILE =
  'ctl:\u0001\u0008\u000B\u000C\u001F\u007F\u0085 nonchar:\uFFFE\uFFFF lone:\uD800 cdata-end:]]> amp:& lt:< gt:> nbsp:&nbsp; quote:" apos:\' emoji:😀';

const periods = [
  period('2026-10-01T00:00:00Z', '2026-10-15T00:00:00Z', {
    title: `Hostile ${HOSTILE}`,
    items: [{ title: `Hostile ${HOSTILE}`, body: HOSTILE, kind: 'fix' }],
    markdown: `## Fixes\n\n- **Hostile**: ${HOSTILE}\n\n\`\`\`\ncode ]]> block <script>\n\`\`\`\n\n<script>alert(1)</script>\n\nA [link](javascript:alert(1)) and [another](https://example.com/ok).`,
  }),
  period('2026-11-01T00:00:00Z', '2026-11-15T12:30:00.250Z', {
    title: 'November, first half',
    items: [
      { title: 'Streaming chat', body: 'SSE', kind: 'feature' },
      { title: 'Cursor', body: 'ties', kind: 'fix' },
      { title: 'More streaming', body: '', kind: 'feature' },
    ],
    markdown: '## Features\n\n- **Streaming chat**: SSE\n- **More streaming**\n\n## Fixes\n\n- **Cursor**: ties\n',
  }),
  period('2026-09-01T00:00:00Z', '2026-09-30T00:00:00Z', { markdown: 'Free text without sections.' }),
];
const xml = renderRssFeed(CHANNEL, periods);

interface Element {
  name: string;
  uri: string;
  attributes: Record<string, { value: string; uri: string }>;
  children: Element[];
  text: string;
}

/** Parses with saxes (namespace-aware, strict) into a small tree; throws on the first error. */
function strictParse(doc: string): Element {
  const parser = new SaxesParser({ xmlns: true });
  const root: Element = { name: '#document', uri: '', attributes: {}, children: [], text: '' };
  const stack = [root];
  let error: Error | undefined;
  parser.on('error', (e) => {
    error ??= e;
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    const attributes = Object.fromEntries(Object.entries(tag.attributes).map(([k, a]) => [k, { value: a.value, uri: a.uri }]));
    const el: Element = { name: tag.local, uri: tag.uri, attributes, children: [], text: '' };
    stack.at(-1)!.children.push(el);
    stack.push(el);
  });
  parser.on('text', (t) => {
    stack.at(-1)!.text += t;
  });
  parser.on('cdata', (t) => {
    stack.at(-1)!.text += t;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.write(doc).close();
  if (error) throw error;
  return root.children[0]!;
}

const child = (el: Element, name: string, uri = '') => el.children.find((c) => c.name === name && c.uri === uri);
const children = (el: Element, name: string, uri = '') => el.children.filter((c) => c.name === name && c.uri === uri);

describe('the strict parser is a real check', () => {
  it.each([
    ['a raw control character', '<rss>\u0001</rss>'],
    ['an undefined entity', '<rss>&nbsp;</rss>'],
    ['an unbound namespace prefix', '<rss><atom:link/></rss>'],
    [']]> inside CDATA', '<rss><![CDATA[a]]>b]]></rss>'],
  ])('rejects %s', (_, doc) => {
    expect(() => strictParse(doc)).toThrow();
  });
});

describe('the RSS feed', () => {
  const rss = strictParse(xml);
  const channel = child(rss, 'channel')!;
  const items = children(channel, 'item');

  it('is well-formed RSS 2.0 with the Atom and content namespaces declared on <rss>', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<rss ')).toBe(true);
    expect(rss.name).toBe('rss');
    expect(rss.attributes.version?.value).toBe('2.0');
    expect(rss.attributes['xmlns:atom']?.value).toBe(ATOM_NS);
    expect(rss.attributes['xmlns:content']?.value).toBe(CONTENT_NS);
  });

  it('has an atom:link rel="self" with the served URL', () => {
    const self = child(channel, 'link', ATOM_NS)!;
    expect(self.attributes.rel?.value).toBe('self');
    expect(self.attributes.href?.value).toBe(CHANNEL.selfUrl);
    expect(self.attributes.type?.value).toBe('application/rss+xml');
  });

  it('lists one item per period, newest first', () => {
    expect(items.map((i) => child(i, 'title')!.text)).toEqual([
      'November, first half',
      expect.stringMatching(/^Hostile /),
      'Release notes 2026-09-01 to 2026-09-30',
    ]);
  });

  it('gives each item a non-permalink guid (the stable id), RFC 822 pubDate from periodStart, RFC 3339 atom:updated from periodEnd', () => {
    const nov = items[0]!;
    const guid = child(nov, 'guid')!;
    expect(guid.text).toBe(periods[1]!.id);
    expect(guid.attributes.isPermaLink?.value).toBe('false');
    expect(child(nov, 'pubDate')!.text).toBe('Sun, 01 Nov 2026 00:00:00 GMT');
    expect(child(nov, 'updated', ATOM_NS)!.text).toBe('2026-11-15T12:30:00.250Z');
    expect(child(nov, 'link')!.text).toBe(`${CHANNEL.pageUrl}#${periods[1]!.id}`);
  });

  it('has one non-blank category per distinct change kind', () => {
    expect(children(items[0]!, 'category').map((c) => c.text)).toEqual(['feature', 'fix']);
    expect(children(items[2]!, 'category')).toEqual([]);
    for (const item of items) for (const c of children(item, 'category')) expect(c.text.trim()).not.toBe('');
  });

  it('puts the rendered body in description before content:encoded', () => {
    for (const item of items) {
      const names = item.children.map((c) => `${c.uri}|${c.name}`);
      const d = names.indexOf('|description');
      const e = names.indexOf(`${CONTENT_NS}|encoded`);
      expect(d).toBeGreaterThanOrEqual(0);
      expect(e).toBeGreaterThan(d);
      expect(child(item, 'encoded', CONTENT_NS)!.text).toBe(child(item, 'description')!.text);
    }
    expect(child(items[0]!, 'description')!.text).toContain('<li><strong>Streaming chat</strong>: SSE</li>');
  });

  it('strips characters XML 1.0 forbids, never leaves ]]> raw in CDATA, and shows raw HTML as text', () => {
    const hostile = items[1]!;
    const title = child(hostile, 'title')!.text;
    expect(title).toBe('Hostile ctl: nonchar: lone: cdata-end:]]> amp:& lt:< gt:> nbsp:&nbsp; quote:" apos:\' emoji:😀');
    const html = child(hostile, 'encoded', CONTENT_NS)!.text;
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script');
    expect(html).not.toMatch(/(href|src)="javascript:/i);
    expect(html).toContain('<a href="#">link</a>');
    expect(html).toContain('<a href="https://example.com/ok">another</a>');
    expect(html).toContain('code ]]&gt; block');
    expect(xml).not.toMatch(/[\u0001-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]/);
  });

  it('reads in a real feed reader (rss-parser)', async () => {
    const feed = await new Parser({ customFields: { item: ['atom:updated'] } }).parseString(xml);
    expect(feed.title).toBe('Platform release notes');
    expect(feed.items).toHaveLength(3);
    const nov = feed.items[0]! as Parser.Item & { 'atom:updated'?: string };
    expect(nov.title).toBe('November, first half');
    expect(nov.guid).toBe(periods[1]!.id);
    expect(new Date(nov.pubDate!).toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(nov.isoDate).toBe('2026-11-01T00:00:00.000Z');
    expect(nov['atom:updated']).toBe('2026-11-15T12:30:00.250Z');
    expect(nov.categories).toEqual(['feature', 'fix']);
    expect(nov.content).toContain('<strong>Streaming chat</strong>');
    expect(nov.contentSnippet).toContain('Streaming chat: SSE');
  });

  it('is a valid document with no periods at all', () => {
    const empty = strictParse(renderRssFeed(CHANNEL, []));
    expect(children(child(empty, 'channel')!, 'item')).toEqual([]);
  });
});

describe('XML text helpers', () => {
  it('splits ]]> across CDATA sections so the text survives', () => {
    const doc = `<x>${cdata('a]]>b]]>]]>c')}</x>`;
    expect(strictParse(doc).text).toBe('a]]>b]]>]]>c');
  });

  it('escapes the five predefined entities and removes forbidden characters', () => {
    expect(escapeXml(`<a href="x">&'\u0000\u0007`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;');
    expect(xmlSafe('ok\t\n\r😀\uD83D')).toBe('ok\t\n\r😀');
  });
});
