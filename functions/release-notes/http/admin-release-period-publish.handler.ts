import { publishReleasePeriod } from '../app/publish-release-period';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { RELEASE_NOTES_ADMIN_REQUESTS } from '../openapi/release-notes-admin-requests';
import { adminPeriodOut } from './release-notes-presenters';
import { releaseNotesProductionDeps, type AdminReleaseNotesDeps } from '../release-notes-wiring';
import { RELEASE_NOTES_ROUTES } from '../release-notes-routes';

/**
 * POST /admin/v1/release-notes/periods: publishes a period from JSON or from a markdown file with
 * front matter (docs/adr/0011). 201; the period is in the feed at once and its fan-out has started.
 */
export const createHandler = (deps: AdminReleaseNotesDeps) =>
  httpRoute(RELEASE_NOTES_ROUTES.adminReleasePeriodPublish, deps, async (req) => {
    const { body: draft } = await readRequest(RELEASE_NOTES_ADMIN_REQUESTS.adminReleasePeriodPublish, req);
    const period = await publishReleasePeriod(deps, draft);
    return { status: 201, body: { data: adminPeriodOut(period) } };
  });

export const handler = lambdaHandler(createHandler, releaseNotesProductionDeps);
