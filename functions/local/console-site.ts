/**
 * The web console's files on the local server, in front of the routes as the API reference is
 * (openapi/docs-site.ts): `index.html` for `/console/` and every page path under it that is not the
 * console's API (`/console/auth/*`, `/console/v1/*`, `/console/openapi.json`), the hashed assets with a
 * year-long cache. Files are read from the build on each request, so a rebuild shows without a restart;
 * without a build the routes answer as before. On AWS the front door serves the same files from a bucket
 * by the same rule (functions/console/console-site-paths.ts, lib/constructs/console-site.ts).
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import {
  CONSOLE_ASSET_CACHE_CONTROL,
  CONSOLE_ASSETS_PREFIX,
  CONSOLE_CONTENT_TYPES,
  CONSOLE_CSP,
  CONSOLE_PAGE_CACHE_CONTROL,
  consoleTargetOf,
} from '../console/console-site-paths';
import { CONSOLE_BUILD_DIR } from './console-build';

export { CONSOLE_CSP };

/** Which file of the build answers a GET of `path`: the app's page, an asset, or none (the routes answer). */
export function consoleFileFor(path: string): { readonly file: string; readonly asset: boolean } | undefined {
  const target = consoleTargetOf(path);
  if (target === 'asset') return { file: join(CONSOLE_BUILD_DIR, 'assets', path.slice(CONSOLE_ASSETS_PREFIX.length)), asset: true };
  return target === 'page' ? { file: join(CONSOLE_BUILD_DIR, 'index.html'), asset: false } : undefined;
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
      'Content-Type': target.asset ? (CONSOLE_CONTENT_TYPES[extname(target.file)] ?? 'application/octet-stream') : 'text/html; charset=utf-8',
      'Content-Security-Policy': CONSOLE_CSP,
      'Cache-Control': target.asset ? CONSOLE_ASSET_CACHE_CONTROL : CONSOLE_PAGE_CACHE_CONTROL,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
