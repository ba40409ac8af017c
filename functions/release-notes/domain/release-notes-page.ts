/**
 * The public release-notes page (spec, area D: the RSS item `link` is "the URL of the public release-notes
 * page"): every published period newest first, one `<article>` per period whose `id` is the period's id
 * (the item link's fragment), its dates, its categories and its body, and the feed's address. Plain
 * HTML that reads without any script; its one stylesheet is inline and allowed by its hash.
 */
import { markdownToHtml } from './markdown-html';
import { categoriesOf, newestFirst, type ReleasePeriod } from './release-notes';
import { microsToIso } from '../../kernel/domain/time';

export const PAGE_TITLE = 'Platform release notes';

/** The page's only style: readable line length, system fonts, visible focus, enough contrast in both schemes. */
export const PAGE_STYLE = [
  ':root{color-scheme:light dark;font-family:system-ui,sans-serif;line-height:1.5}',
  'body{max-width:46rem;margin:0 auto;padding:1rem 1.25rem 3rem}',
  'article{border-top:1px solid #8888;padding-top:1rem;margin-top:2rem}',
  '.meta{color:CanvasText;opacity:.8;font-size:.95rem}',
  '.categories{display:inline;list-style:none;padding:0;margin:0}',
  '.categories li{display:inline;margin-right:.5rem}',
  'a:focus-visible{outline:3px solid Highlight;outline-offset:2px}',
  'pre{overflow-x:auto}',
].join('');

/** Escapes text for HTML content and double-quoted attributes. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const day = (us: number) => microsToIso(us).slice(0, 10);

function articleHtml(period: ReleasePeriod): string {
  const id = escapeHtml(period.id);
  const categories = categoriesOf(period);
  return [
    `<article id="${id}" aria-labelledby="${id}-title">`,
    `<h2 id="${id}-title"><a href="#${id}">${escapeHtml(period.title)}</a></h2>`,
    `<p class="meta"><time datetime="${microsToIso(period.periodStartUs)}">${day(period.periodStartUs)}</time> to <time datetime="${microsToIso(period.periodEndUs)}">${day(period.periodEndUs)}</time>`,
    categories.length ? `: <ul class="categories" aria-label="Categories">${categories.map((c) => `<li>${c}</li>`).join('')}</ul></p>` : '</p>',
    markdownToHtml(period.markdown),
    '</article>',
  ].join('\n');
}

/** The whole page; `periods` in any order (they are sorted newest first here). */
export function renderReleaseNotesPage(input: { readonly feedUrl: string }, periods: readonly ReleasePeriod[]): string {
  const feed = escapeHtml(input.feedUrl);
  const sorted = [...periods].sort(newestFirst);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${PAGE_TITLE}</title>`,
    '<link rel="icon" href="data:,">',
    `<link rel="alternate" type="application/rss+xml" title="${PAGE_TITLE}" href="${feed}">`,
    `<style>${PAGE_STYLE}</style>`,
    '</head>',
    '<body>',
    `<header><h1>${PAGE_TITLE}</h1><p>Dated changes to the Application Platform API. Follow them in a feed reader: <a href="${feed}">${feed}</a>.</p></header>`,
    '<main>',
    ...(sorted.length ? sorted.map(articleHtml) : ['<p>No release notes have been published yet.</p>']),
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
