/**
 * The esbuild settings AppFunction bundles with (lib/constructs/lambda-bundle-code.ts): bundle, platform
 * node, format esm, target node22, main fields module,main, minify, the createRequire banner in every
 * file, no externals, code splitting into `index.mjs` and `chunks/`. Shared by the bundle bench and the
 * bundle tests, so they measure what a deployment builds. No source map: sizes are the .mjs files alone.
 */
import type { BuildOptions, Metafile } from 'esbuild';
import { lambdaBuildOptions } from '../lib/constructs/lambda-bundle-code';

export function lambdaEsbuildOptions(root: string, entry: string, outdir: string): BuildOptions & { metafile: true } {
  return { ...lambdaBuildOptions(root, entry, outdir), sourcemap: false };
}

/**
 * The output files a cold start loads (paths as the metafile names them): the entry's and, transitively,
 * those it imports statically. A chunk reached only through `import()` is loaded by the request that needs it.
 */
export function coldStartOutputs(metafile: Metafile): string[] {
  const outputs = metafile.outputs;
  // Every chunk an `import()` starts has an `entryPoint` too; only the entry is index.mjs (chunk names carry a hash).
  const entry = Object.keys(outputs).find((k) => k === 'index.mjs' || k.endsWith('/index.mjs'));
  if (entry === undefined) throw new Error('the metafile names no index.mjs');
  const seen = new Set([entry]);
  const queue = [entry];
  while (queue.length) {
    for (const im of outputs[queue.shift()!]!.imports) {
      if (im.kind !== 'import-statement' || im.external || seen.has(im.path)) continue;
      seen.add(im.path);
      queue.push(im.path);
    }
  }
  return [...seen];
}
