/**
 * Markdown to HTML for the feed (description and content:encoded). Period bodies are written by
 * operators, but feed readers render this HTML: raw HTML in the markdown is shown as text, and links
 * keep only web, mail and relative targets.
 */
import { Marked, type Token } from 'marked';

const SAFE_HREF = /^(https?:|mailto:|#|\/)/i;

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html: ({ text }) => escapeHtml(text),
  },
  walkTokens(token: Token) {
    if ((token.type === 'link' || token.type === 'image') && !SAFE_HREF.test(token.href.trim())) token.href = '#';
  },
});

export function markdownToHtml(markdown: string): string {
  return marked.parse(markdown, { async: false });
}
