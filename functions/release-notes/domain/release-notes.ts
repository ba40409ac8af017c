/**
 * Release-note periods (spec, area D): a time range, a markdown body, structured items and an id that
 * is stable for the range, so publishing the same period again updates it instead of adding a twin.
 */
import { createHash } from 'node:crypto';
import { badRequest } from '../../kernel/domain/errors';
import { microsToIso, type Micros } from '../../kernel/domain/time';

export const CHANGE_KINDS = ['feature', 'improvement', 'fix', 'other'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface ReleaseItem {
  readonly title: string;
  readonly body: string;
  readonly kind: ChangeKind;
}

export interface ReleasePeriod {
  /** Derived from (periodStart, periodEnd): the same range always has the same id. */
  readonly id: string;
  readonly periodStartUs: Micros;
  readonly periodEndUs: Micros;
  /** The human-readable label (feed item title). */
  readonly title: string;
  /** The rendered markdown body, without front matter. */
  readonly markdown: string;
  readonly items: readonly ReleaseItem[];
  /** Hash of the content: a changed period is a new revision and is delivered again. */
  readonly revision: string;
  readonly publishedAtUs: Micros;
}

/** What an author hands in; the id, revision and label are derived. */
export interface PeriodDraft {
  readonly periodStartUs: Micros;
  readonly periodEndUs: Micros;
  readonly title?: string;
  readonly markdown: string;
  readonly items: readonly ReleaseItem[];
}

export const PERIOD_LIMITS = { markdownChars: 100_000, items: 200, titleChars: 300, itemBodyChars: 10_000 } as const;

/** A fixed namespace for the name-based (RFC 4122 version 5 layout) period ids. */
const PERIOD_NAMESPACE = 'release-notes-period:v1';

/** A UUID-shaped id derived from the period's range: stable across re-publishing. */
export function periodIdOf(periodStartUs: Micros, periodEndUs: Micros): string {
  const h = createHash('sha1')
    .update(`${PERIOD_NAMESPACE}|${microsToIso(periodStartUs)}|${microsToIso(periodEndUs)}`)
    .digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function revisionOf(draft: PeriodDraft, title: string): string {
  const content = JSON.stringify([draft.periodStartUs, draft.periodEndUs, title, draft.markdown, draft.items.map((i) => [i.kind, i.title, i.body])]);
  return createHash('sha256').update(content).digest('hex').slice(0, 16);
}

function isoDate(us: Micros): string {
  return microsToIso(us).slice(0, 10);
}

/** The default label: `Release notes 2026-11-01 to 2026-11-15`. */
export function defaultPeriodTitle(periodStartUs: Micros, periodEndUs: Micros): string {
  return `Release notes ${isoDate(periodStartUs)} to ${isoDate(periodEndUs)}`;
}

/** Checks a draft and derives the stored period; violations are 400s naming the field. */
export function buildPeriod(draft: PeriodDraft, publishedAtUs: Micros): ReleasePeriod {
  if (!(draft.periodEndUs > draft.periodStartUs)) throw badRequest('Invalid periodEnd: must be after periodStart');
  if (draft.markdown.length > PERIOD_LIMITS.markdownChars) throw badRequest(`Invalid markdown: at most ${PERIOD_LIMITS.markdownChars} characters`);
  if (!draft.markdown.trim() && draft.items.length === 0) throw badRequest('Invalid period: needs a markdown body or at least one item');
  if (draft.items.length > PERIOD_LIMITS.items) throw badRequest(`Invalid items: at most ${PERIOD_LIMITS.items}`);
  draft.items.forEach((item, i) => {
    if (!CHANGE_KINDS.includes(item.kind)) throw badRequest(`Invalid items.${i}.kind: one of ${CHANGE_KINDS.join(', ')}`);
    if (!item.title.trim() || item.title.length > PERIOD_LIMITS.titleChars)
      throw badRequest(`Invalid items.${i}.title: 1 to ${PERIOD_LIMITS.titleChars} characters`);
    if (item.body.length > PERIOD_LIMITS.itemBodyChars) throw badRequest(`Invalid items.${i}.body: at most ${PERIOD_LIMITS.itemBodyChars} characters`);
  });
  const title = draft.title?.trim() || defaultPeriodTitle(draft.periodStartUs, draft.periodEndUs);
  if (title.length > PERIOD_LIMITS.titleChars) throw badRequest(`Invalid title: at most ${PERIOD_LIMITS.titleChars} characters`);
  return {
    id: periodIdOf(draft.periodStartUs, draft.periodEndUs),
    periodStartUs: draft.periodStartUs,
    periodEndUs: draft.periodEndUs,
    title,
    markdown: draft.markdown,
    items: draft.items.map((i) => ({ title: i.title.trim(), body: i.body.trim(), kind: i.kind })),
    revision: revisionOf(draft, title),
    publishedAtUs,
  };
}

/** Distinct change kinds of the period, in the canonical order. */
export function categoriesOf(period: Pick<ReleasePeriod, 'items'>): ChangeKind[] {
  return CHANGE_KINDS.filter((k) => period.items.some((i) => i.kind === k));
}

/** The webhook's `areas` hint: the distinct item titles, in order. */
export function areasOf(period: Pick<ReleasePeriod, 'items'>): string[] {
  return [...new Set(period.items.map((i) => i.title))];
}

/**
 * The spec's keyword rule: case-insensitive substring of any item's title or body, or of the raw
 * markdown when the period has no structured items.
 */
export function matchesArea(period: Pick<ReleasePeriod, 'items' | 'markdown'>, keyword: string): boolean {
  const needle = keyword.toLowerCase();
  if (period.items.length === 0) return period.markdown.toLowerCase().includes(needle);
  return period.items.some((i) => i.title.toLowerCase().includes(needle) || i.body.toLowerCase().includes(needle));
}

export interface SubscriptionFilters {
  /** Empty: no area filter. */
  readonly areas: readonly string[];
  /** Empty: no category filter. */
  readonly categories: readonly ChangeKind[];
}

/** A period matches when every given filter matches (any area; at least one item in the categories). */
export function matchesFilters(period: Pick<ReleasePeriod, 'items' | 'markdown'>, filters: SubscriptionFilters): boolean {
  if (filters.areas.length > 0 && !filters.areas.some((a) => matchesArea(period, a))) return false;
  if (filters.categories.length > 0 && !period.items.some((i) => filters.categories.includes(i.kind))) return false;
  return true;
}

/** Newest first: by periodStart, then periodEnd, then id (a total order for the feed and backfill). */
export function newestFirst(a: ReleasePeriod, b: ReleasePeriod): number {
  return b.periodStartUs - a.periodStartUs || b.periodEndUs - a.periodEndUs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}
