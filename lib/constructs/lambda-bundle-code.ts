/**
 * A Lambda function's code: its entry bundled by esbuild, in-process, with code splitting, so every
 * module graph reached only through `await import()` is a chunk file beside `index.mjs` that a cold
 * start neither reads nor compiles (docs/adr/0053-lean-cold-starts.md).
 */
import * as path from 'node:path';
import { AssetHashType, BundlingOutput, DockerImage, type ILocalBundling } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { type BuildOptions, buildSync } from 'esbuild';

/** CommonJS dependencies call `require`, which an ESM bundle (and each of its chunks) lacks unless it is recreated. */
export const ESM_REQUIRE_SHIM = "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);";

/** The handler setting of a bundle built here: `handler` exported by `index.mjs`. */
export const BUNDLE_HANDLER = 'index.handler';

/**
 * The esbuild settings of every function, `entry` resolved from `root` and the files written under
 * `outdir`: `index.mjs`, and `chunks/` for what the entry imports dynamically or shares with such an
 * import. No externals: the AWS SDK version the tests ran against (package-lock.json) is deployed,
 * not whichever one the runtime ships.
 */
export function lambdaBuildOptions(root: string, entry: string, outdir: string): BuildOptions & { metafile: true } {
  return {
    absWorkingDir: root,
    entryPoints: [entry],
    outdir,
    bundle: true,
    splitting: true,
    entryNames: 'index',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    platform: 'node',
    format: 'esm',
    target: 'node22',
    mainFields: ['module', 'main'],
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    banner: { js: ESM_REQUIRE_SHIM },
    metafile: true,
    logLevel: 'error',
  };
}

/**
 * Bundles on the synthesizing machine. Its `entry` is a data property on purpose: the asset cache
 * key is the JSON of the bundling options, so two functions of one source directory must differ in it.
 */
class EsbuildLocalBundling implements ILocalBundling {
  constructor(
    private readonly root: string,
    readonly entry: string,
  ) {}

  tryBundle(outputDir: string): boolean {
    buildSync(lambdaBuildOptions(this.root, this.entry, outputDir));
    return true;
  }
}

/**
 * The code of the function whose entry module is `entry` (absolute, under `root`). The asset is the
 * bundle directory, hashed by its output; bundling skipped for a stack (`aws:cdk:bundling-stacks`)
 * stages nothing, as for any bundled asset.
 */
export function lambdaBundleCode(root: string, entry: string): lambda.Code {
  return lambda.Code.fromAsset(root, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      local: new EsbuildLocalBundling(root, path.relative(root, entry)),
      // Never run: the local bundling above always succeeds or throws esbuild's error.
      image: DockerImage.fromRegistry('local-esbuild-only'),
      outputType: BundlingOutput.NOT_ARCHIVED,
    },
  });
}
