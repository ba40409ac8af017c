/**
 * Which paths under /console are the web console's files and which are its API, in one place: the local
 * server (functions/local/console-site.ts) and the front door's CloudFront Function
 * (lib/constructs/console-site.ts) answer by this rule, and both are tested against one table of paths.
 * The rule is written with plain string and regular-expression tests so the CloudFront Function can be
 * generated from these very values. Synth loads this file, so it imports nothing.
 */

/** One strict policy for every file of the console: nothing inline, nothing from elsewhere, never framed. */
export const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

export const CONSOLE_PREFIX = '/console';
/** Vite's hashed output: safe to cache for a year, since a new build has new names. */
export const CONSOLE_ASSETS_PREFIX = `${CONSOLE_PREFIX}/assets/`;
/** What every page path is answered with. */
export const CONSOLE_INDEX_PATH = `${CONSOLE_PREFIX}/index.html`;
/** The console's API under the same prefix: the routes answer these, never the files. */
export const CONSOLE_API_PREFIXES: readonly string[] = [`${CONSOLE_PREFIX}/auth/`, `${CONSOLE_PREFIX}/v1/`];
export const CONSOLE_API_PATHS: readonly string[] = [`${CONSOLE_PREFIX}/auth`, `${CONSOLE_PREFIX}/v1`, `${CONSOLE_PREFIX}/openapi.json`];
/** A page is a clean path: no empty, dot or encoded segment (`/console//v1/…` is not a page). */
export const CONSOLE_PAGE_PATH = /^\/console(?:\/(?:[A-Za-z0-9_-]+\/)*(?:[A-Za-z0-9_-]+)?)?$/;
/** An asset is one plain file name in the assets folder, never a dot file. */
export const CONSOLE_ASSET_NAME = /^[\w-][\w.-]*$/;

/** Hashed names change with their content, so an asset never changes under its name. */
export const CONSOLE_ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** The page names the current assets, so it is revalidated on every load. */
export const CONSOLE_PAGE_CACHE_CONTROL = 'no-cache';

/** The type each kind of file of the build is served with, locally and from the bucket. */
export const CONSOLE_CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.html': 'text/html; charset=utf-8',
};

export type ConsoleTarget = 'page' | 'asset';

/** What answers a GET of `path`: the app's page, an asset of the build, or neither (the routes answer). */
export function consoleTargetOf(path: string): ConsoleTarget | undefined {
  if (path !== CONSOLE_PREFIX && !path.startsWith(`${CONSOLE_PREFIX}/`)) return undefined;
  if (CONSOLE_API_PATHS.includes(path) || CONSOLE_API_PREFIXES.some((p) => path.startsWith(p))) return undefined;
  if (path.startsWith(CONSOLE_ASSETS_PREFIX)) return CONSOLE_ASSET_NAME.test(path.slice(CONSOLE_ASSETS_PREFIX.length)) ? 'asset' : undefined;
  return CONSOLE_PAGE_PATH.test(path) ? 'page' : undefined;
}
