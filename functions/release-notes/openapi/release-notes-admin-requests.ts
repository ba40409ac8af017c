/**
 * The request of area D's admin route (publish a period), keyed by route id: the handler reads its
 * input with it. The body is JSON (`zod/mini`), or a markdown file with front matter (docs/adr/0011);
 * either reads as the period's draft.
 */
import * as z from 'zod/mini';
import { badRequest } from '../../kernel/domain/errors';
import type { BodyRule } from '../../kernel/http/request-declaration';
import { isoTimestamp, parseWith } from '../../kernel/http/validation';
import { CHANGE_KINDS, type PeriodDraft } from '../domain/release-notes';
import { itemsFromMarkdown, markdownFromItems, parsePeriodMarkdown } from '../domain/release-notes-markdown';

export const periodPublishBody = z.strictObject({
  periodStart: isoTimestamp,
  periodEnd: isoTimestamp,
  title: z.optional(z.string().check(z.maxLength(300))),
  markdown: z.optional(z.string()),
  items: z.optional(z.array(z.strictObject({ title: z.string(), body: z._default(z.string(), ''), kind: z.enum(CHANGE_KINDS) }))),
});

/** The other body the route takes: a markdown file with front matter (the document shows it beside the JSON). */
const PERIOD_MARKDOWN = {
  type: 'string',
  title: 'PeriodMarkdown',
  description:
    'Front matter (`periodStart`, `periodEnd`, optional `title`) between `---` lines, then the body: sections `## Features`, `## Improvements`, `## Fixes`, `## Other` of items `- **Title**: body`',
};

const periodDraft: BodyRule<PeriodDraft> = {
  contentType: 'application/json',
  schema: periodPublishBody,
  required: true,
  alternatives: { 'text/markdown': PERIOD_MARKDOWN, 'text/plain': PERIOD_MARKDOWN },
  read: (req) => {
    const type = (req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type === 'text/markdown' || type === 'text/plain') return parsePeriodMarkdown(req.textBody());
    if (type !== 'application/json') throw badRequest('Content-Type must be application/json or text/markdown');
    const input = parseWith(periodPublishBody, req.jsonBody());
    // Either part may be omitted: items are read from the markdown's sections, or the markdown is written from the items.
    const markdown = input.markdown ?? markdownFromItems(input.items ?? []);
    return {
      periodStartUs: input.periodStart,
      periodEndUs: input.periodEnd,
      ...(input.title ? { title: input.title } : {}),
      markdown,
      items: input.items ?? itemsFromMarkdown(markdown),
    };
  },
};

export const RELEASE_NOTES_ADMIN_REQUESTS = {
  adminReleasePeriodPublish: { body: periodDraft },
};
