/**
 * `npm run openapi [-- --out <file>] [--admin-out <file>] [--server-url <url>]`: writes the OpenAPI 3.1
 * documents of the public API (functions/openapi/document.ts, default docs/openapi.json) and of the admin
 * API (functions/openapi/admin-document.ts, default admin-openapi.json beside the public one) and prints their paths.
 * Feed them to a client generator or an API gateway of your own.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildAdminOpenApiDocument } from '../openapi/admin-document';
import { buildOpenApiDocument } from '../openapi/document';

const USAGE =
  'usage: npm run openapi -- [--out docs/openapi.json] [--admin-out <dir of --out>/admin-openapi.json] [--server-url https://<distribution>.cloudfront.net]';

try {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: 'docs/openapi.json' },
      'admin-out': { type: 'string' },
      'server-url': { type: 'string', default: '/' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const written = [
    [values.out, buildOpenApiDocument(values['server-url'])],
    [values['admin-out'] ?? join(dirname(values.out), 'admin-openapi.json'), buildAdminOpenApiDocument(values['server-url'])],
  ] as const;
  for (const [file, doc] of written) {
    const out = resolve(file);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
    console.log(`wrote ${out} (OpenAPI ${String(doc.openapi)}, ${Object.keys(doc.paths as object).length} paths)`);
  }
} catch (err) {
  console.error(`${(err as Error).message}\n${USAGE}`);
  process.exit(2);
}
