import { publishReleasePeriod } from '../app/publish-release-period';
import { badRequest } from '../../platform/domain/errors';
import type { PeriodDraft } from '../domain/release-notes';
import { itemsFromMarkdown, markdownFromItems, parsePeriodMarkdown } from '../domain/release-notes-markdown';
import { httpRoute } from '../../platform/http/kit';
import type { HttpRequest } from '../../platform/http/kit-request';
import { lambdaHandler } from '../../platform/http/lambda';
import { adminPeriodOut } from './release-notes-presenters';
import { parseWith } from '../../platform/http/validation';
import { releaseNotesProductionDeps, type AdminReleaseNotesDeps } from '../wiring/release-notes-wiring';
import { PERIOD_JSON_BODY } from '../openapi/period-requests';
import { RELEASE_NOTES_ROUTES } from '../release-notes-routes';

function draftOf(req: HttpRequest): PeriodDraft {
  const type = (req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'text/markdown' || type === 'text/plain') return parsePeriodMarkdown(req.textBody());
  if (type !== 'application/json') throw badRequest('Content-Type must be application/json or text/markdown');
  const input = parseWith(PERIOD_JSON_BODY, req.jsonBody());
  // Either part may be omitted: items are read from the markdown's sections, or the markdown is written from the items.
  const markdown = input.markdown ?? markdownFromItems(input.items ?? []);
  return {
    periodStartUs: input.periodStart,
    periodEndUs: input.periodEnd,
    ...(input.title ? { title: input.title } : {}),
    markdown,
    items: input.items ?? itemsFromMarkdown(markdown),
  };
}

/**
 * POST /admin/v1/release-notes/periods: publishes a period from JSON or from a markdown file with
 * front matter (docs/adr/0011). 201; the period is in the feed at once and its fan-out has started.
 */
export const createHandler = (deps: AdminReleaseNotesDeps) =>
  httpRoute(RELEASE_NOTES_ROUTES.adminReleasePeriodPublish, deps, async (req) => {
    const period = await publishReleasePeriod(deps, draftOf(req));
    return { status: 201, body: { data: adminPeriodOut(period) } };
  });

export const handler = lambdaHandler(createHandler, releaseNotesProductionDeps);
