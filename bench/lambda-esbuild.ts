/**
 * The esbuild settings NodejsFunction passes for AppFunction (lib/constructs/app-function.ts; aws-lambda-nodejs
 * bundling.js): bundle, platform node, format esm, target node22, main fields module,main, minify, the
 * createRequire banner, no externals (bundleAwsSDK: true). Shared by the bundle bench and the job-bundle test,
 * so both measure what a deployment builds. No source map: sizes are the .mjs alone.
 */
import type { BuildOptions } from 'esbuild';

/** lib/constructs/app-function.ts, ESM_REQUIRE_SHIM. */
const BANNER = "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);";

export function lambdaEsbuildOptions(root: string, entry: string): BuildOptions & { metafile: true } {
  return {
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    mainFields: ['module', 'main'],
    minify: true,
    sourcemap: false,
    banner: { js: BANNER },
    metafile: true,
    logLevel: 'error',
  };
}
