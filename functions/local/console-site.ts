/**
 * The web console's files on the local server, in front of the routes as the API reference is
 * (openapi/docs-site.ts): `index.html` for `/console/` and every page path under it that is not the
 * console's API (`/console/auth/*`, `/console/v1/*`, `/console/openapi.json`), the hashed assets with a
 * year-long cache. Files are read from the build on each request, so a rebuild shows without a restart;
 * without a build the routes answer as before. On AWS the same files are to come from a bucket.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { CONSOLE_BUILD_DIR } from './console-build';

export const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const PREFIX = '/console';
const ASSETS = `${PREFIX}/assets/`;
const API_PREFIXES = [`${PREFIX}/auth/`, `${PREFIX}/v1/`];
const PAGE_PATH = /^\/console(?:\/(?:[A-Za-z0-9_-]+\/)*(?:[A-Za-z0-9_-]+)?)?$/;
const API_PATHS = new Set([`${PREFIX}/auth`, `${PREFIX}/v1`, `${PREFIX}/openapi.json`]);
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/** Which file of the build answers a GET of `path`: the app's page, an asset, or none (the routes answer). */
export function consoleFileFor(path: string): { readonly file: string; readonly asset: boolean } | undefined {
  if (path !== PREFIX && !path.startsWith(`${PREFIX}/`)) return undefined;
  if (API_PATHS.has(path) || API_PREFIXES.some((p) => path.startsWith(p))) return undefined;
  if (path.startsWith(ASSETS)) {
    const name = path.slice(ASSETS.length);
    return /^[\w.-]+$/.test(name) && !name.startsWith('.') ? { file: join(CONSOLE_BUILD_DIR, 'assets', name), asset: true } : undefined;
  }
  // A page is a clean path: no empty, dot or encoded segment (`/console//v1/…` is not a page; the router answers it).
  return PAGE_PATH.test(path) ? { file: join(CONSOLE_BUILD_DIR, 'index.html'), asset: false } : undefined;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/** The local server's listener with the console's files in front of the routes. */
export function withConsole(listener: Listener): Listener {
  return async (req, res) => {
    const path = (req.url ?? '/').split(/[?#]/, 1)[0]!;
    const target = req.method === 'GET' || req.method === 'HEAD' ? consoleFileFor(path) : undefined;
    const body = target ? await readFile(target.file).catch(() => undefined) : undefined;
    if (!target || !body) return listener(req, res);
    res.writeHead(200, {
      'Content-Type': target.asset ? (TYPES[extname(target.file)] ?? 'application/octet-stream') : 'text/html; charset=utf-8',
      'Content-Security-Policy': CONSOLE_CSP,
      'Cache-Control': target.asset ? 'public, max-age=31536000, immutable' : 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
