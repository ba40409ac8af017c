/**
 * Every Lambda entry module bundled as the CDK construct bundles it (lib/constructs/app-function.ts:
 * esbuild, ESM, node22, minified, the createRequire banner, the AWS SDK inside), beside a bare DynamoDB
 * Query handler built the same way in the same run: bundle size, and cold import time in a fresh Node
 * process (median of BENCH_BUNDLE_RUNS, interleaved with the bare handler so noise hits both alike).
 * Functions that carry a model or document library are listed apart: the 1.3x target is for the others.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { percentile, table } from './stats';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_BUNDLE_RUNS ?? 7);
const KINDS = ['http', 'queue', 'jobs', 'authorizers'] as const;
/** Packages that mean a function calls a model or reads documents. */
const HEAVY = /node_modules\/(@aws-sdk\/client-bedrock-runtime|openai|mammoth|pdf[^/]*|unpdf|tesseract[^/]*|@aws-sdk\/client-textract)\//;
const BANNER = "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);";

const BARE = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async () => (await db.send(new QueryCommand({ TableName: process.env.TABLE_NAME, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'x' } }))).Items;
`;

interface Bundle {
  readonly name: string;
  readonly kind: string;
  readonly file: string;
  readonly bytes: number;
  readonly heavy: boolean;
  readonly metafile: Metafile;
}

/** `entry` is a module path, or the source of a module resolved from the repository root. */
async function bundle(entry: string | { source: string }, outDir: string, name: string, kind: string): Promise<Bundle> {
  const file = join(outDir, `${kind}-${name}.mjs`);
  const result = await build({
    ...(typeof entry === 'string' ? { entryPoints: [entry] } : { stdin: { contents: entry.source, resolveDir: ROOT, loader: 'js' as const } }),
    outfile: file,
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
  });
  const inputs = Object.keys(result.metafile.inputs);
  return { name, kind, file, bytes: statSync(file).size, heavy: inputs.some((i) => HEAVY.test(i)), metafile: result.metafile };
}

/** Milliseconds to import the bundle in a fresh process (module evaluation only; the handler is not called). */
async function importMs(file: string): Promise<number> {
  const script = `const t=performance.now();await import(${JSON.stringify(pathToFileURL(file).href)});console.log(performance.now()-t)`;
  const env = { ...process.env, AWS_REGION: 'eu-west-1', TABLE_NAME: 'bench', POWERTOOLS_METRICS_DISABLED: 'true' };
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { env });
  return Number(stdout.trim());
}

/** Bytes per package inside one bundle, largest first. */
function packages(b: Bundle): [string, number][] {
  const sizes = new Map<string, number>();
  for (const output of Object.values(b.metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      const key = m ? m[1]! : input.startsWith('functions/') ? 'functions/ (own code)' : input;
      sizes.set(key, (sizes.get(key) ?? 0) + bytesInOutput);
    }
  }
  return [...sizes].sort((a, b) => b[1] - a[1]);
}

export async function benchBundles(): Promise<void> {
  const outDir = mkdtempSync(join(tmpdir(), 'platform-bundles-'));
  try {
    const bare = await bundle({ source: BARE }, outDir, 'bare-dynamodb-query', 'bare');
    const entries = KINDS.flatMap((kind) =>
      readdirSync(join(ROOT, 'functions', kind))
        .filter((f) => f.endsWith('.handler.ts'))
        .map((f) => ({ kind, name: f.replace(/\.handler\.ts$/, ''), entry: join(ROOT, 'functions', kind, f) })),
    );
    const bundles: Bundle[] = [];
    for (let i = 0; i < entries.length; i += 2) {
      bundles.push(...(await Promise.all(entries.slice(i, i + 2).map((e) => bundle(e.entry, outDir, e.name, e.kind)))));
    }
    const bareTimes: number[] = [];
    const times = new Map<string, number[]>();
    for (let r = 0; r < RUNS; r++) {
      for (const b of bundles) {
        bareTimes.push(await importMs(bare.file));
        times.set(b.file, [...(times.get(b.file) ?? []), await importMs(b.file)]);
      }
    }
    const bareMs = percentile(bareTimes, 50);
    const rows = bundles
      .map((b) => {
        const ms = percentile(times.get(b.file)!, 50);
        return { b, ms, sizeX: b.bytes / bare.bytes, msX: ms / bareMs };
      })
      .sort((x, y) => `${x.b.kind}/${x.b.name}`.localeCompare(`${y.b.kind}/${y.b.name}`));
    table(
      rows.map(({ b, ms, sizeX, msX }) => ({
        function: `${b.kind}/${b.name}`,
        class: b.heavy ? 'model/doc' : 'plain',
        'size KB': (b.bytes / 1024).toFixed(0),
        '× bare': sizeX.toFixed(2),
        'import ms p50': ms.toFixed(1),
        '× bare ': msX.toFixed(2),
      })),
    );
    console.log(`\nbare DynamoDB Query handler: ${(bare.bytes / 1024).toFixed(0)} KB, import p50 ${bareMs.toFixed(1)} ms (${bareTimes.length} runs, interleaved)`);
    const plain = rows.filter((r) => !r.b.heavy);
    const within = plain.filter((r) => r.sizeX <= 1.3 && r.msX <= 1.3);
    console.log(`plain functions within 1.3× of the bare handler on both size and import time: ${within.length} of ${plain.length}`);
    for (const r of plain.filter((x) => !within.includes(x))) console.log(`  over: ${r.b.kind}/${r.b.name} (size ×${r.sizeX.toFixed(2)}, import ×${r.msX.toFixed(2)})`);
    for (const r of rows.filter((x) => x.b.heavy)) console.log(`  model/doc: ${r.b.kind}/${r.b.name} (size ×${r.sizeX.toFixed(2)}, import ×${r.msX.toFixed(2)})`);
    console.log('\nLargest plain bundles, by package:');
    for (const r of [...plain].sort((x, y) => y.b.bytes - x.b.bytes).slice(0, 3)) {
      console.log(`- ${r.b.kind}/${r.b.name}: ${packages(r.b).slice(0, 8).map(([p, n]) => `${p} ${(n / 1024).toFixed(0)} KB`).join(', ')}`);
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
