/**
 * The markdown form of a release-note period (docs/adr/0011): a front matter block for the range and
 * label, then the body. Structured items are read from the body itself, so the file an author writes
 * is exactly the markdown subscribers receive:
 *
 *   ---
 *   periodStart: 2026-11-01T00:00:00Z
 *   periodEnd: 2026-11-15T00:00:00Z
 *   title: Release notes, first half of November   (optional)
 *   ---
 *   ## Features
 *   - **Streaming chat**: `stream: true` sends Server-Sent Events.
 *     An indented line continues the item's body.
 *   ## Fixes
 *   - **Export cursor**: no longer skips rows on ties.
 *
 * Sections `Features`, `Improvements`, `Fixes` and `Other` (level 2 or 3 headings, case-insensitive)
 * hold items `- **Title**: body` (or `- plain text`, a title without body). A body with no such
 * section has no structured items; the area filter then reads the raw markdown (spec).
 */
import { badRequest } from '../../kernel/domain/errors';
import { CHANGE_KINDS, type ChangeKind, type PeriodDraft, type ReleaseItem } from './release-notes';
import { parseIsoToMicros } from '../../kernel/domain/time';

const SECTION_KIND: Readonly<Record<string, ChangeKind>> = {
  features: 'feature',
  feature: 'feature',
  'new features': 'feature',
  improvements: 'improvement',
  improvement: 'improvement',
  fixes: 'fix',
  fix: 'fix',
  'bug fixes': 'fix',
  other: 'other',
};

const SECTION_TITLE: Readonly<Record<ChangeKind, string>> = { feature: 'Features', improvement: 'Improvements', fix: 'Fixes', other: 'Other' };

const FRONT_MATTER_KEYS = ['periodStart', 'periodEnd', 'title'] as const;

function frontMatter(text: string): { fields: Record<string, string>; body: string } {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const m = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(normalized);
  if (!m) throw badRequest('Invalid markdown: must start with a front matter block (---, periodStart, periodEnd, ---)');
  const fields: Record<string, string> = {};
  for (const line of m[1]!.split('\n')) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const kv = /^([A-Za-z]+)\s*:\s*(.*?)\s*$/.exec(line);
    if (!kv) throw badRequest(`Invalid front matter line: ${JSON.stringify(line.slice(0, 80))}`);
    const key = kv[1]!;
    if (!(FRONT_MATTER_KEYS as readonly string[]).includes(key))
      throw badRequest(`Invalid front matter: unknown key ${key} (known: ${FRONT_MATTER_KEYS.join(', ')})`);
    fields[key] = kv[2]!.replace(/^(["'])(.*)\1$/, '$2');
  }
  return { fields, body: normalized.slice(m[0].length).replace(/^\n+/, '') };
}

function timestampField(fields: Record<string, string>, name: string): number {
  const raw = fields[name];
  if (raw === undefined) throw badRequest(`Invalid front matter: ${name} is required`);
  const us = parseIsoToMicros(raw);
  if (us === undefined) throw badRequest(`Invalid ${name}: must be an ISO 8601 timestamp (e.g. 2026-11-01T00:00:00Z)`);
  return us;
}

/** One list item line: `**Title**` with an optional `:`, `-` or `—` before the body, or plain text. */
function itemOf(text: string, kind: ChangeKind): ReleaseItem {
  const bold = /^\*\*(.+?)\*\*\s*(?:[:\u2014-]\s*)?(.*)$/.exec(text);
  if (bold) return { title: bold[1]!.replace(/:$/, '').trim(), body: bold[2]!.trim(), kind };
  return { title: text.trim(), body: '', kind };
}

/** The structured items of a markdown body (empty when it has no recognised section). */
export function itemsFromMarkdown(body: string): ReleaseItem[] {
  const items: ReleaseItem[] = [];
  let kind: ChangeKind | undefined;
  let current: { title: string; body: string[]; kind: ChangeKind } | undefined;
  const flush = () => {
    if (current) items.push({ title: current.title, body: current.body.join('\n').trim(), kind: current.kind });
    current = undefined;
  };
  for (const line of body.replace(/\r\n?/g, '\n').split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      flush();
      const level = line.indexOf(' ');
      const name = heading[1]!.replace(/:$/, '').trim().toLowerCase();
      kind = level === 2 || level === 3 ? SECTION_KIND[name] : undefined;
      continue;
    }
    if (!kind) continue;
    const bullet = /^[-*+]\s+(.*)$/.exec(line);
    if (bullet) {
      flush();
      const first = itemOf(bullet[1]!, kind);
      current = { title: first.title, body: first.body ? [first.body] : [], kind };
    } else if (current && /^\s+\S/.test(line)) {
      current.body.push(line.trim());
    } else if (line.trim()) {
      flush();
    }
  }
  flush();
  return items.filter((i) => i.title);
}

/** Parses a markdown period file: front matter plus body; items come from the body's sections. */
export function parsePeriodMarkdown(text: string): PeriodDraft {
  const { fields, body } = frontMatter(text);
  const periodStartUs = timestampField(fields, 'periodStart');
  const periodEndUs = timestampField(fields, 'periodEnd');
  return { periodStartUs, periodEndUs, ...(fields.title ? { title: fields.title } : {}), markdown: body, items: itemsFromMarkdown(body) };
}

/** The markdown body of structured items, in the format `itemsFromMarkdown` reads back. */
export function markdownFromItems(items: readonly ReleaseItem[]): string {
  const sections: string[] = [];
  for (const kind of CHANGE_KINDS) {
    const ofKind = items.filter((i) => i.kind === kind);
    if (ofKind.length === 0) continue;
    const lines = ofKind.map((i) => {
      const [first = '', ...rest] = i.body.trim().split('\n');
      const head = `- **${i.title.trim()}**${first ? `: ${first.trim()}` : ''}`;
      return [head, ...rest.filter((l) => l.trim()).map((l) => `  ${l.trim()}`)].join('\n');
    });
    sections.push(`## ${SECTION_TITLE[kind]}\n\n${lines.join('\n')}`);
  }
  return `${sections.join('\n\n')}\n`;
}
