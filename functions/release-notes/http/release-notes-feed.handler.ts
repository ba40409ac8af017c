import { listReleaseFeed } from '../app/list-release-feed';
import { renderRssFeed } from '../domain/rss-feed';
import { publicBaseUrl } from '../../kernel/http/base-url';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import type { HttpRequest } from '../../kernel/http/kit-request';
import { readRequest } from '../../kernel/http/request-declaration';
import { RELEASE_NOTES_REQUESTS } from '../openapi/release-notes-requests';
import { releaseNotesReadProductionDeps, type ReleaseNotesReadDeps } from '../release-notes-wiring';
import { RELEASE_NOTES_ROUTES } from '../release-notes-routes';

/**
 * The feed's own URL under the platform's `{base_url}` (configuration, never the request's Host), and
 * the public release-notes page its items link to.
 */
function servedUrl(deps: ReleaseNotesReadDeps, req: HttpRequest): { self: string; page: string } {
  const base = publicBaseUrl(deps, req);
  const feed = `${base}${req.event.path}`;
  const query = new URLSearchParams(Object.entries(req.query)).toString();
  return { self: query ? `${feed}?${query}` : feed, page: `${base}${RELEASE_NOTES_ROUTES.releaseNotesPage.path}` };
}

/**
 * GET /api/v1/release-notes/feed[?area=<keyword>]: RSS 2.0 with the Atom and content namespaces,
 * newest period first. `area` keeps the periods whose items (or raw markdown) contain the keyword.
 */
export const createHandler = (deps: ReleaseNotesReadDeps) =>
  httpRoute(RELEASE_NOTES_ROUTES.releaseNotesFeed, deps, async (req) => {
    const { area } = (await readRequest(RELEASE_NOTES_REQUESTS.releaseNotesFeed, req)).query;
    const periods = await listReleaseFeed(deps, area !== undefined ? { area } : {});
    const url = servedUrl(deps, req);
    const xml = renderRssFeed(
      { selfUrl: url.self, pageUrl: url.page, title: 'Platform release notes', description: 'Dated changes to the Application Platform API' },
      periods,
    );
    return { status: 200, text: xml, headers: { 'Content-Type': 'application/rss+xml; charset=utf-8', 'Cache-Control': 'public, max-age=60' } };
  });

export const handler = lambdaHandler(createHandler, releaseNotesReadProductionDeps);
