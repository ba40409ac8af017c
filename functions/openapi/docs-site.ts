/**
 * The API reference: `GET /api/v1/openapi.json` (the generated document), `GET /console/openapi.json`
 * (the console backend's) and `/docs`, a page rendered
 * by Swagger UI (`swagger-ui-dist`, served from node_modules: no CDN, works offline). The local server
 * serves these files; on AWS the front door serves the same files from a bucket (lib/edge-stack.ts).
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildOpenApiDocument } from './document';
import { buildConsoleOpenApiDocument } from './console-document';

export const OPENAPI_PATH = '/api/v1/openapi.json';
export const DOCS_PATH = '/docs';
/** The console backend's own document (console-document.ts). */
export const CONSOLE_OPENAPI_PATH = '/console/openapi.json';

/** The page's own files and the Swagger UI files it loads, all same-origin. */
const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Application Platform API reference</title>
<link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/init.js"></script>
</body>
</html>
`;

const INIT_JS = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  dom_id: '#reference',
  deepLinking: true,
  docExpansion: 'list',
  validatorUrl: null,
  tryItOutEnabled: false,
});
`;

export interface StaticFile {
  readonly contentType: string;
  readonly body: string | Buffer;
}

function swaggerUiDir(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/** Every file of the reference, by URL path (what the bucket holds on AWS). */
export function docsFiles(serverUrl = '/'): Record<string, StaticFile> {
  const ui = swaggerUiDir();
  return {
    [OPENAPI_PATH]: { contentType: 'application/json', body: JSON.stringify(buildOpenApiDocument(serverUrl), null, 2) },
    [CONSOLE_OPENAPI_PATH]: { contentType: 'application/json', body: JSON.stringify(buildConsoleOpenApiDocument(serverUrl), null, 2) },
    [DOCS_PATH]: { contentType: 'text/html; charset=utf-8', body: INDEX_HTML },
    [`${DOCS_PATH}/init.js`]: { contentType: 'text/javascript; charset=utf-8', body: INIT_JS },
    [`${DOCS_PATH}/swagger-ui-bundle.js`]: { contentType: 'text/javascript; charset=utf-8', body: readFileSync(join(ui, 'swagger-ui-bundle.js')) },
    [`${DOCS_PATH}/swagger-ui.css`]: { contentType: 'text/css; charset=utf-8', body: readFileSync(join(ui, 'swagger-ui.css')) },
  };
}

/** Same-origin scripts and styles only (Swagger UI sets inline styles; images may be data: URLs). */
export const DOCS_CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

let cached: Record<string, StaticFile> | undefined;

/** The file for a GET of `path` (`/docs/` too), or undefined when it is not part of the reference. */
export function docsFile(path: string): StaticFile | undefined {
  const key = path === `${DOCS_PATH}/` ? DOCS_PATH : path;
  if (key !== OPENAPI_PATH && key !== CONSOLE_OPENAPI_PATH && key !== DOCS_PATH && !key.startsWith(`${DOCS_PATH}/`)) return undefined;
  cached ??= docsFiles();
  return cached[key];
}

type Listener = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/** The local server's listener with the reference in front of the routes. */
export function withReference(listener: Listener): Listener {
  return (req, res) => {
    // Only the path counts here, and reading it must never throw: `new URL` refuses targets such as `//`.
    const path = (req.url ?? '/').split(/[?#]/, 1)[0]!;
    let file: StaticFile | undefined;
    try {
      file = req.method === 'GET' || req.method === 'HEAD' ? docsFile(path) : undefined;
    } catch {
      // The reference could not be built (a broken install): the API itself keeps serving.
      res
        .writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' })
        .end(JSON.stringify({ error: { code: 'internal', message: 'The API reference is unavailable' } }));
      return;
    }
    if (!file) return listener(req, res);
    res.writeHead(200, {
      'Content-Type': file.contentType,
      'Content-Security-Policy': DOCS_CSP,
      'Cache-Control': 'public, max-age=300',
      'X-Content-Type-Options': 'nosniff',
    });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  };
}
