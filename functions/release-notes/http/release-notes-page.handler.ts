import { createHash } from 'node:crypto';
import { listReleaseFeed } from '../app/list-release-feed';
import { PAGE_STYLE, renderReleaseNotesPage } from '../domain/release-notes-page';
import { publicBaseUrl } from '../../kernel/http/base-url';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { releaseNotesReadProductionDeps, type ReleaseNotesReadDeps } from '../release-notes-wiring';
import { RELEASE_NOTES_ROUTES } from '../release-notes-routes';

/** Nothing runs on the page and nothing loads from anywhere: only its own inline style, by hash, and an empty icon (so browsers ask for no favicon). */
const CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(PAGE_STYLE, 'utf8').digest('base64')}'`,
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * GET /release-notes: the public release-notes page the feed's item links point at (`#<period id>`),
 * server-rendered HTML, newest period first. Query parameters are ignored (links from mail and chat
 * carry tracking ones); the page is the same for everyone and cached for a minute.
 */
export const createHandler = (deps: ReleaseNotesReadDeps) =>
  httpRoute(RELEASE_NOTES_ROUTES.releaseNotesPage, deps, async (req) => {
    const periods = await listReleaseFeed(deps, {});
    const html = renderReleaseNotesPage({ feedUrl: `${publicBaseUrl(deps, req)}${RELEASE_NOTES_ROUTES.releaseNotesFeed.path}` }, periods);
    return {
      status: 200,
      text: html,
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'public, max-age=60',
        'Content-Security-Policy': CSP,
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
      },
    };
  });

export const handler = lambdaHandler(createHandler, releaseNotesReadProductionDeps);
