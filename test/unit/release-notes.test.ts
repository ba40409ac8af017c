import { describe, expect, it } from 'vitest';
import {
  areasOf,
  buildPeriod,
  categoriesOf,
  matchesArea,
  matchesFilters,
  newestFirst,
  periodIdOf,
  type PeriodDraft,
} from '../../functions/release-notes/domain/release-notes';
import { itemsFromMarkdown, markdownFromItems, parsePeriodMarkdown } from '../../functions/release-notes/domain/release-notes-markdown';
import { parseIsoToMicros } from '../../functions/kernel/domain/time';

const us = (iso: string) => parseIsoToMicros(iso)!;
const draft = (over: Partial<PeriodDraft> = {}): PeriodDraft => ({
  periodStartUs: us('2026-11-01T00:00:00Z'),
  periodEndUs: us('2026-11-15T00:00:00Z'),
  markdown: '',
  items: [
    { title: 'Streaming chat', body: 'Server-Sent Events for completions', kind: 'feature' },
    { title: 'Export cursor', body: 'No skipped rows on ties', kind: 'fix' },
    { title: 'Faster pages', body: 'One query per page', kind: 'improvement' },
    { title: 'More streaming', body: '', kind: 'feature' },
  ],
  ...over,
});

describe('period ids and revisions', () => {
  it('derives a stable UUID-shaped id from the range only', () => {
    const a = buildPeriod(draft(), 1);
    const b = buildPeriod(draft({ items: [{ title: 'Other', body: '', kind: 'other' }] }), 2);
    expect(a.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.id).toBe(b.id);
    expect(a.id).toBe(periodIdOf(us('2026-11-01T00:00:00Z'), us('2026-11-15T00:00:00Z')));
    expect(periodIdOf(us('2026-11-01T00:00:00Z'), us('2026-11-16T00:00:00Z'))).not.toBe(a.id);
  });

  it('changes the revision when the content changes, not when it is published again', () => {
    expect(buildPeriod(draft(), 1).revision).toBe(buildPeriod(draft(), 99).revision);
    expect(buildPeriod(draft({ title: 'Relabelled' }), 1).revision).not.toBe(buildPeriod(draft(), 1).revision);
    expect(buildPeriod(draft({ markdown: 'x' }), 1).revision).not.toBe(buildPeriod(draft(), 1).revision);
  });

  it('labels a period by its dates unless it has a title', () => {
    expect(buildPeriod(draft(), 1).title).toBe('Release notes 2026-11-01 to 2026-11-15');
    expect(buildPeriod(draft({ title: '  November, first half ' }), 1).title).toBe('November, first half');
  });

  it.each([
    [{ periodEndUs: us('2026-11-01T00:00:00Z') }, /periodEnd/],
    [{ items: [], markdown: '   ' }, /markdown body or at least one item/],
    [{ items: [{ title: ' ', body: '', kind: 'fix' as const }] }, /items\.0\.title/],
    [{ items: [{ title: 'x', body: '', kind: 'bug' as never }] }, /items\.0\.kind/],
    [{ markdown: 'x'.repeat(100_001) }, /markdown/],
  ])('rejects %j', (over, message) => {
    expect(() => buildPeriod(draft(over), 1)).toThrow(message);
  });
});

describe('categories, areas and matching (spec rules)', () => {
  const period = buildPeriod(draft(), 1);

  it('lists distinct change kinds in canonical order and item titles as areas', () => {
    expect(categoriesOf(period)).toEqual(['feature', 'improvement', 'fix']);
    expect(areasOf(period)).toEqual(['Streaming chat', 'Export cursor', 'Faster pages', 'More streaming']);
  });

  it('matches an area as a case-insensitive substring of an item title or body', () => {
    expect(matchesArea(period, 'STREAM')).toBe(true);
    expect(matchesArea(period, 'skipped rows')).toBe(true);
    expect(matchesArea(period, 'billing')).toBe(false);
  });

  it('matches against the raw markdown only when there are no structured items', () => {
    const free = buildPeriod(draft({ items: [], markdown: 'We changed **Billing** pages.' }), 1);
    expect(matchesArea(free, 'billing')).toBe(true);
    // With items, the markdown is not searched.
    expect(matchesArea(buildPeriod(draft({ markdown: 'billing' }), 1), 'billing')).toBe(false);
  });

  it('combines filters: any area, and at least one item in the categories; empty means no filter', () => {
    expect(matchesFilters(period, { areas: [], categories: [] })).toBe(true);
    expect(matchesFilters(period, { areas: ['nope', 'cursor'], categories: [] })).toBe(true);
    expect(matchesFilters(period, { areas: [], categories: ['other'] })).toBe(false);
    expect(matchesFilters(period, { areas: [], categories: ['other', 'fix'] })).toBe(true);
    expect(matchesFilters(period, { areas: ['cursor'], categories: ['other'] })).toBe(false);
    const free = buildPeriod(draft({ items: [], markdown: 'text' }), 1);
    expect(matchesFilters(free, { areas: [], categories: ['feature'] })).toBe(false);
  });

  it('orders newest first by start, then end, then id', () => {
    const a = buildPeriod(draft(), 1);
    const b = buildPeriod(draft({ periodStartUs: us('2026-12-01T00:00:00Z'), periodEndUs: us('2026-12-02T00:00:00Z') }), 1);
    const c = buildPeriod(draft({ periodEndUs: us('2026-11-20T00:00:00Z') }), 1);
    expect([a, b, c].sort(newestFirst).map((p) => p.id)).toEqual([b.id, c.id, a.id]);
  });
});

describe('the markdown period format', () => {
  const file = [
    '---',
    'periodStart: 2026-11-01T00:00:00Z',
    'periodEnd: "2026-11-15T00:00:00Z"',
    'title: First half of November',
    '---',
    '',
    'Intro paragraph, not an item.',
    '',
    '## Features',
    '',
    '- **Streaming chat**: `stream: true` sends Server-Sent Events.',
    '  A second line of the same item.',
    '- **Files**',
    '',
    '### Bug fixes',
    '* **Export cursor** — no skipped rows',
    '- plain item text',
    '',
    '## Roadmap',
    '- **Not an item**: unknown section',
  ].join('\n');

  it('reads the range and label from front matter and the items from the sections', () => {
    const parsed = parsePeriodMarkdown(file);
    expect(parsed.periodStartUs).toBe(us('2026-11-01T00:00:00Z'));
    expect(parsed.periodEndUs).toBe(us('2026-11-15T00:00:00Z'));
    expect(parsed.title).toBe('First half of November');
    expect(parsed.markdown.startsWith('Intro paragraph')).toBe(true);
    expect(parsed.items).toEqual([
      { title: 'Streaming chat', body: '`stream: true` sends Server-Sent Events.\nA second line of the same item.', kind: 'feature' },
      { title: 'Files', body: '', kind: 'feature' },
      { title: 'Export cursor', body: 'no skipped rows', kind: 'fix' },
      { title: 'plain item text', body: '', kind: 'fix' },
    ]);
  });

  it('has no structured items when the body has no known section', () => {
    expect(itemsFromMarkdown('# Notes\n\n- a\n- b\n')).toEqual([]);
  });

  it.each([
    ['no front matter', '## Features\n- x'],
    ['missing periodEnd', '---\nperiodStart: 2026-11-01T00:00:00Z\n---\nx'],
    ['bad timestamp', '---\nperiodStart: yesterday\nperiodEnd: 2026-11-15T00:00:00Z\n---\nx'],
    ['unknown key', '---\nperiodStart: 2026-11-01T00:00:00Z\nperiodEnd: 2026-11-15T00:00:00Z\nauthor: me\n---\nx'],
  ])('rejects a file with %s', (_, text) => {
    expect(() => parsePeriodMarkdown(text)).toThrow(/Invalid/);
  });

  it('writes items as markdown that reads back to the same items', () => {
    const items = draft().items;
    const md = markdownFromItems(items);
    expect(md).toContain('## Features\n\n- **Streaming chat**: Server-Sent Events for completions');
    const back = itemsFromMarkdown(md);
    const byKind = (xs: typeof items) => [...xs].sort((a, b) => a.kind.localeCompare(b.kind) || a.title.localeCompare(b.title));
    expect(byKind(back)).toEqual(byKind(items));
    const multi = [{ title: 'Two lines', body: 'first\nsecond', kind: 'other' as const }];
    expect(itemsFromMarkdown(markdownFromItems(multi))).toEqual(multi);
  });
});
