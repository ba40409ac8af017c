/**
 * `npm run openapi [-- --out <file>] [--server-url <url>]`: writes the OpenAPI 3.1 document of the
 * public API (functions/openapi/document.ts) to a file (default docs/openapi.json) and prints its path.
 * Feed it to a client generator or an API gateway of your own.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildOpenApiDocument } from '../openapi/document';

const USAGE = 'usage: npm run openapi -- [--out docs/openapi.json] [--server-url https://<distribution>.cloudfront.net]';

try {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: 'docs/openapi.json' },
      'server-url': { type: 'string', default: '/' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const out = resolve(values.out);
  mkdirSync(dirname(out), { recursive: true });
  const doc = buildOpenApiDocument(values['server-url']);
  writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
  console.log(`wrote ${out} (OpenAPI ${String(doc.openapi)}, ${Object.keys(doc.paths as object).length} paths)`);
} catch (err) {
  console.error(`${(err as Error).message}\n${USAGE}`);
  process.exit(2);
}
