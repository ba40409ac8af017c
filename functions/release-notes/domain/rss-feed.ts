/**
 * The release-notes feed as RSS 2.0 (spec, area D; the rules feed validators enforce): the Atom
 * and content namespaces on <rss>, an atom:link rel="self" with the served URL, one item per period
 * newest first with guid isPermaLink="false", pubDate (RFC 822) from periodStart, atom:updated
 * (RFC 3339) from periodEnd, one category per distinct change kind, and the rendered body in
 * description (entity-escaped HTML) before content:encoded (the same HTML in CDATA).
 *
 * Written by hand with strict escaping: characters XML 1.0 forbids (and C1 controls) are removed from
 * every text, `]]>` is split across CDATA sections, and no entity but the five predefined ones is emitted.
 */
import { markdownToHtml } from './markdown-html';
import { categoriesOf, newestFirst, type ReleasePeriod } from './release-notes';
import { microsToIso, microsToMs } from '../../kernel/domain/time';

export const ATOM_NS = 'http://www.w3.org/2005/Atom';
export const CONTENT_NS = 'http://purl.org/rss/1.0/modules/content/';

export interface FeedChannel {
  /** The URL this document was served from (atom:link rel="self"). */
  readonly selfUrl: string;
  /** The public release-notes page (channel and item links). */
  readonly pageUrl: string;
  readonly title: string;
  readonly description: string;
}

// XML 1.0 Char production, minus C0/C1 controls other than tab, LF, CR; lone surrogates included.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\u007E\u00A0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Removes every character XML 1.0 does not allow (and C1 controls, which it discourages). */
export function xmlSafe(text: string): string {
  return text.replace(NOT_XML_CHAR, '');
}

export function escapeXml(text: string): string {
  return xmlSafe(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** A CDATA section that stays one even when the text holds `]]>`. */
export function cdata(text: string): string {
  return `<![CDATA[${xmlSafe(text).replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
}

/** RFC 822 date as RSS 2.0 wants it (`Sun, 01 Nov 2026 00:00:00 GMT`). */
export function rfc822(us: number): string {
  return new Date(microsToMs(us)).toUTCString();
}

function element(name: string, text: string, attrs = ''): string {
  return `<${name}${attrs}>${escapeXml(text)}</${name}>`;
}

function itemXml(period: ReleasePeriod, pageUrl: string): string {
  const html = markdownToHtml(xmlSafe(period.markdown));
  const lines = [
    element('title', period.title),
    element('link', `${pageUrl}#${period.id}`),
    element('guid', period.id, ' isPermaLink="false"'),
    element('pubDate', rfc822(period.periodStartUs)),
    element('atom:updated', microsToIso(period.periodEndUs)),
    ...categoriesOf(period).map((kind) => element('category', kind)),
    element('description', html),
    `<content:encoded>${cdata(html)}</content:encoded>`,
  ];
  return `    <item>\n${lines.map((l) => `      ${l}`).join('\n')}\n    </item>`;
}

/** The whole feed document; `periods` in any order (they are sorted newest first here). */
export function renderRssFeed(channel: FeedChannel, periods: readonly ReleasePeriod[]): string {
  const sorted = [...periods].sort(newestFirst);
  const newest = sorted.reduce((max, p) => Math.max(max, p.publishedAtUs), 0);
  const head = [
    element('title', channel.title),
    element('link', channel.pageUrl),
    element('description', channel.description),
    element('language', 'en'),
    `<atom:link href="${escapeXml(channel.selfUrl)}" rel="self" type="application/rss+xml"/>`,
    ...(newest > 0 ? [element('lastBuildDate', rfc822(newest))] : []),
  ];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<rss version="2.0" xmlns:atom="${ATOM_NS}" xmlns:content="${CONTENT_NS}">`,
    '  <channel>',
    ...head.map((l) => `    ${l}`),
    ...sorted.map((p) => itemXml(p, channel.pageUrl)),
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}
