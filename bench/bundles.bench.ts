/**
 * Every Lambda entry module (functions/{http,queue,jobs,authorizers}/*.handler.ts) bundled as the CDK
 * construct bundles it (lib/constructs/app-function.ts), beside a bare DynamoDB Query handler built the
 * same way in the same run: the bytes a cold start loads, and cold import time in a fresh Node process
 * (median of BENCH_BUNDLE_RUNS, default 7, with the bare handler measured before every function so noise
 * hits both).
 *
 * Build settings are AppFunction's (bench/lambda-esbuild.ts): code splitting into index.mjs and chunks/,
 * bundle, platform node, format esm, target node22, main fields module,main, minify, the createRequire
 * banner, no externals. One difference, on purpose: no source maps (the deployed asset also holds a .map
 * per file), so sizes are the .mjs files alone. The size compared is index.mjs plus the chunks it imports
 * statically, transitively (what importing index.mjs reads and compiles); the chunks a request's
 * `import()` loads count only in the total of all files.
 *
 * Functions that call a model or read documents (chat completions, or a bundle holding
 * @aws-sdk/client-bedrock-runtime, openai, mammoth, pdf*, tesseract*) are reported apart as model/doc:
 * the 1.3x target is for the others.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { coldStartOutputs, lambdaEsbuildOptions } from './lambda-esbuild';
import { percentile } from './stats';

const ROOT = resolve(import.meta.dirname, '..');
const RUNS = positiveInt(process.env.BENCH_BUNDLE_RUNS, 7);
const BUILD_CONCURRENCY = 2;
const TARGET_RATIO = 1.3;
const KINDS = ['http', 'queue', 'jobs', 'authorizers'] as const;
/** Package names (under node_modules) that mean a function calls a model or reads documents. */
const MODEL_DOC_PACKAGE = /^(@aws-sdk\/client-bedrock-runtime|openai|mammoth|(@[^/]+\/)?[^/]*pdf[^/]*|(@[^/]+\/)?[^/]*tesseract[^/]*)$/;
/** Entry names that are model calls whatever their bundle holds. */
const MODEL_DOC_NAME = /chat-completions/;

const BARE_SOURCE = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event) => {
  const out = await db.send(new QueryCommand({
    TableName: process.env.TABLE_NAME,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': String(event?.pk ?? 'x') },
  }));
  return out.Items ?? [];
};
`;

/** Valid dummy values for every variable the functions read (functions/kernel/env.ts), so no top-level check throws. */
const IMPORT_ENV: Record<string, string> = {
  AWS_REGION: 'eu-west-1',
  AWS_DEFAULT_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  STAGE: 'bench',
  TABLE_NAME: 'bench-table',
  BUCKET_NAME: 'bench-bucket',
  JOBS_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/000000000000/bench-jobs',
  WEBHOOKS_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/000000000000/bench-webhooks',
  WEBHOOK_SECRETS_KEY_ARN: 'arn:aws:kms:eu-west-1:000000000000:key/00000000-0000-0000-0000-000000000000',
  VISIBILITY_DELAY_MS: '30000',
  ANON_RETENTION_DAYS: '30',
  EMPTY_SESSION_MAX_AGE_HOURS: '24',
  APP_DELETION_BATCH_SIZE: '25',
  BEDROCK_ENABLED: 'true',
  TRUST_VIEWER_ADDRESS: 'false',
  GATEWAY_USAGE_PLANS: '{"orgKey":"bench-plan"}',
  GATEWAY_AUTHORIZER_STAGES: 'abc123/prod',
  POWERTOOLS_SERVICE_NAME: 'platform-api',
  POWERTOOLS_METRICS_NAMESPACE: 'PlatformApi/bench',
  POWERTOOLS_LOG_LEVEL: 'SILENT',
  POWERTOOLS_METRICS_DISABLED: 'true',
};

interface Bundle {
  readonly name: string;
  readonly kind: string;
  readonly file: string;
  /** index.mjs and the chunks it imports statically: what a cold start reads and compiles. */
  readonly bytes: number;
  /** Every .mjs file of the bundle, the chunks only a request's `import()` loads included. */
  readonly totalBytes: number;
  /** The metafile's names of the files counted in `bytes`. */
  readonly coldOutputs: readonly string[];
  readonly metafile: Metafile;
  /** Why the function counts as model/doc; empty for the others. */
  readonly modelDoc: readonly string[];
}

function positiveInt(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`BENCH_BUNDLE_RUNS must be a positive integer, got ${raw}`);
  return n;
}

/** The package an esbuild input path belongs to (the last node_modules segment), or undefined for own code. */
function packageOf(input: string): string | undefined {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) return undefined;
  const [first, second] = input.slice(at + 'node_modules/'.length).split('/');
  return first!.startsWith('@') ? `${first}/${second}` : first;
}

async function bundle(entry: string, outDir: string, kind: string, name: string): Promise<Bundle> {
  const dir = join(outDir, `${kind}-${name}`);
  const file = join(dir, 'index.mjs');
  const result = await build({
    ...lambdaEsbuildOptions(ROOT, entry, dir),
    // The bare handler lives in the temp dir; it resolves the SDK from the repository's node_modules.
    nodePaths: [join(ROOT, 'node_modules')],
  });
  const packages = new Set(
    Object.keys(result.metafile.inputs)
      .map(packageOf)
      .filter((p) => p !== undefined),
  );
  const modelDoc = [...(MODEL_DOC_NAME.test(name) ? ['chat completions'] : []), ...[...packages].filter((p) => MODEL_DOC_PACKAGE.test(p)).sort()];
  const outputs = result.metafile.outputs;
  const coldOutputs = coldStartOutputs(result.metafile);
  const bytes = coldOutputs.reduce((sum, o) => sum + outputs[o]!.bytes, 0);
  const totalBytes = Object.values(outputs).reduce((sum, o) => sum + o.bytes, 0);
  if (statSync(file).size !== outputs[coldOutputs[0]!]!.bytes) throw new Error(`${file} is not the entry output the metafile names`);
  return { name, kind, file, bytes, totalBytes, coldOutputs, metafile: result.metafile, modelDoc };
}

/** Runs `work` over `items` with at most `limit` at a time, keeping the order of `items`. */
async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

const MARK = '__bench_import_ms__=';

/** Milliseconds to import the bundle in a fresh process: module evaluation only, the handler is not called. */
function importMs(file: string): Promise<number> {
  const script = `const t=performance.now();await import(${JSON.stringify(pathToFileURL(file).href)});const ms=performance.now()-t;process.stdout.write('\\n${MARK}'+ms+'\\n');`;
  return new Promise((done, fail) => {
    // A clean environment: nothing of the parent's (tsx loader, npm variables) reaches the measured process.
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...IMPORT_ENV, PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => {
      const line = stdout.split('\n').find((l) => l.startsWith(MARK));
      if (code === 0 && line) done(Number(line.slice(MARK.length)));
      else fail(new Error(`importing ${file} failed (exit ${code}): ${stderr.trim().split('\n').slice(0, 3).join(' / ')}`));
    });
  });
}

/** A markdown table with the given header (which may repeat a column name). */
function grid(header: readonly string[], rows: readonly (readonly string[])[], right: ReadonlySet<number> = new Set()): void {
  const width = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const pad = (s: string, i: number) => (right.has(i) ? s.padStart(width[i]!) : s.padEnd(width[i]!));
  console.log(`| ${header.map(pad).join(' | ')} |`);
  console.log(`|${width.map((w, i) => (right.has(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`);
  for (const r of rows) console.log(`| ${r.map(pad).join(' | ')} |`);
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const x = (ratio: number) => (Number.isFinite(ratio) ? ratio.toFixed(2) : 'n/a');

/** Bytes per package in the files a cold start loads (metafile outputs[...].inputs bytesInOutput), largest first. */
function packageBytes(b: Bundle): [string, number][] {
  const sizes = new Map<string, number>();
  for (const name of b.coldOutputs) {
    for (const [input, { bytesInOutput }] of Object.entries(b.metafile.outputs[name]!.inputs)) {
      const key = packageOf(input) ?? (input.startsWith('functions/') ? '(own code: functions/)' : `(other: ${input})`);
      sizes.set(key, (sizes.get(key) ?? 0) + bytesInOutput);
    }
  }
  return [...sizes].sort((a, b) => b[1] - a[1]);
}

export async function benchBundles(): Promise<void> {
  const started = performance.now();
  const outDir = mkdtempSync(join(tmpdir(), 'platform-bundles-'));
  try {
    // Every Lambda entry: functions/<area>/<kind>/<name>.handler.ts, in every area's folder.
    const entries = readdirSync(join(ROOT, 'functions')).flatMap((area) =>
      KINDS.flatMap((kind) => {
        const dir = join(ROOT, 'functions', area, kind);
        if (!existsSync(dir)) return [];
        return readdirSync(dir)
          .filter((f) => f.endsWith('.handler.ts'))
          .map((f) => ({ kind: kind as string, name: f.slice(0, -'.handler.ts'.length), entry: join(dir, f) }));
      }),
    );
    mkdirSync(join(outDir, 'src'));
    const bareEntry = join(outDir, 'src', 'bare-dynamodb-query.handler.mjs');
    writeFileSync(bareEntry, BARE_SOURCE);
    const built = await pool([{ kind: 'bare', name: 'bare-dynamodb-query', entry: bareEntry }, ...entries], BUILD_CONCURRENCY, (e) =>
      bundle(e.entry, outDir, e.kind, e.name),
    );
    const bare = built[0]!;
    const bundles = built.slice(1);
    const buildSeconds = (performance.now() - started) / 1000;

    // One unmeasured import warms the node binary and the page cache; then per round, bare before each function.
    await importMs(bare.file);
    const bareTimes: number[] = [];
    const times = new Map<Bundle, number[]>(bundles.map((b) => [b, []]));
    const failures = new Map<Bundle, string>();
    for (let r = 0; r < RUNS; r++) {
      for (const b of bundles) {
        bareTimes.push(await importMs(bare.file));
        if (failures.has(b)) continue;
        try {
          times.get(b)!.push(await importMs(b.file));
        } catch (err) {
          failures.set(b, (err as Error).message);
        }
      }
    }
    const bareMs = percentile(bareTimes, 50);

    const rows = bundles
      .map((b) => {
        const ms = failures.has(b) ? NaN : percentile(times.get(b)!, 50);
        return { b, ms, sizeX: b.bytes / bare.bytes, msX: ms / bareMs };
      })
      .sort((p, q) => p.b.name.localeCompare(q.b.name) || p.b.kind.localeCompare(q.b.kind));

    console.log(
      `\n${bundles.length} functions; esbuild as AppFunction (code splitting, esm, node22, minify, banner, AWS SDK bundled), sourcemap: false. ` +
        'Size: index.mjs and the chunks it imports statically (what a cold start loads); all files: every chunk included. ' +
        `Import: fresh \`node\` ${process.version} per sample, ${RUNS} samples per function (median), bare handler imported before every function sample.\n`,
    );
    grid(
      ['function', 'kind', 'size KB', '× bare', 'import ms (median)', '× bare', 'all files KB'],
      rows.map(({ b, ms, sizeX, msX }) => [
        b.name,
        b.modelDoc.length ? `${b.kind}, model/doc` : b.kind,
        kb(b.bytes),
        x(sizeX),
        Number.isFinite(ms) ? ms.toFixed(1) : 'failed',
        x(msX),
        kb(b.totalBytes),
      ]),
      new Set([2, 3, 4, 5, 6]),
    );
    console.log(
      `\nbare DynamoDB Query handler (DynamoDBClient + DynamoDBDocumentClient, one QueryCommand): ${kb(bare.bytes)} KB, import median ${bareMs.toFixed(1)} ms ` +
        `(${bareTimes.length} samples, p10 ${percentile(bareTimes, 10).toFixed(1)} / p90 ${percentile(bareTimes, 90).toFixed(1)} ms)`,
    );

    const plain = rows.filter((r) => r.b.modelDoc.length === 0);
    const heavy = rows.filter((r) => r.b.modelDoc.length > 0);
    const within = plain.filter((r) => r.sizeX <= TARGET_RATIO && r.msX <= TARGET_RATIO);
    const over = plain.filter((r) => !within.includes(r));
    console.log(
      `\n**${within.length} of ${plain.length}** functions (model/doc excluded) are within ${TARGET_RATIO}× of the bare handler on both size and import time.`,
    );
    if (over.length) {
      console.log(`\nNot within ${TARGET_RATIO}× (${over.length}):`);
      for (const r of over) {
        const why = [r.sizeX > TARGET_RATIO ? `size ×${x(r.sizeX)}` : '', !(r.msX <= TARGET_RATIO) ? `import ×${x(r.msX)}` : ''].filter(Boolean).join(', ');
        console.log(`- ${r.b.kind}/${r.b.name}: ${why}`);
      }
    }
    if (heavy.length) {
      console.log(`\nmodel/doc, reported apart (${heavy.length}):`);
      for (const r of heavy) console.log(`- ${r.b.kind}/${r.b.name} (${r.b.modelDoc.join(', ')}): size ×${x(r.sizeX)}, import ×${x(r.msX)}`);
    }
    for (const [b, message] of failures) console.log(`\nimport failed: ${b.kind}/${b.name}: ${message}`);

    console.log('\nTop 8 packages by bytes a cold start loads in the 3 largest non-model/doc bundles (metafile bytesInOutput):');
    for (const r of [...plain].sort((p, q) => q.b.bytes - p.b.bytes).slice(0, 3)) {
      const total = packageBytes(r.b).reduce((sum, [, n]) => sum + n, 0);
      console.log(`\n${r.b.kind}/${r.b.name}: ${kb(r.b.bytes)} KB\n`);
      grid(
        ['package', 'KB', 'share'],
        packageBytes(r.b)
          .slice(0, 8)
          .map(([p, n]) => [p, kb(n), `${((100 * n) / total).toFixed(0)}%`]),
        new Set([1, 2]),
      );
    }
    console.log(`\n(builds ${buildSeconds.toFixed(0)} s, total ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
