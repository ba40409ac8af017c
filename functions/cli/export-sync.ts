/**
 * `EXPORT_SYNC_KEY=svc_org_… npm run export-sync -- --base-url <url> [--dir .export-sync | --duckdb <file>] [--every 5m]`:
 * the reference Org Export sync client (functions/cli/export-sync/sync-client.ts) as a command, shaped
 * for schedulers: it runs one pass and exits, unless `--every` makes it loop. It keeps a local copy
 * (apps, sessions with transcripts, usage rows, tombstones, checkpoints) as JSON files under --dir, or
 * in a DuckDB database with --duckdb, and prints exactly one JSON summary line per pass on stdout.
 * Progress lines go to stderr (at most one every 2 s, and one per finished list) unless --quiet.
 *
 * The key comes from EXPORT_SYNC_KEY or --key-file, which keep it out of the process list and of the
 * command line npm and schedulers echo; --key still works, with a warning.
 * Exit code: 0 after a successful pass (or a loop stopped by SIGINT/SIGTERM), 1 when the pass failed,
 * 2 on a usage error or when another client holds the target.
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDbStore } from './export-sync/duckdb-store';
import { ExportApiError, fetchTransport } from './export-sync/export-api';
import { JsonDirStore, type LocalStore } from './export-sync/local-store';
import { progressPrinter } from './export-sync/progress';
import { syncOnce } from './export-sync/sync-client';

const USAGE = `usage: npm run export-sync -- --base-url <url> [--dir <dir> | --duckdb <file>] [--every <duration>] [--quiet]
       (the org key in EXPORT_SYNC_KEY, or --key-file <file>)

Runs one sync pass, prints one JSON summary line on stdout and exits.
  --dir <dir>            keep the copy as JSON files under <dir> (the default, .export-sync)
  --duckdb <file>        keep the copy in a DuckDB database file instead (tables apps, sessions,
                         messages, usage, tombstones, sync_checkpoint): the target for a large org,
                         since the JSON files are read into memory whole and the database is not
  --duckdb-memory <size> the most memory DuckDB uses (default 256MB; 512MB, 2GB...): a pass beyond
                         it spills to <file>.tmp
  --every <duration>     run a pass every <duration> (30s, 5m, 1h) until SIGINT or SIGTERM, which stop
                         it after the current pass; a second signal aborts at once
  --once                 one pass: the default, accepted for older scripts (not with --every)
  --interval <seconds>   deprecated: the same as --every <seconds>s
  --quiet                no progress lines on stderr
  --per-session          read each changed session's transcript on its own (the spec's loop; one
                         request per session) instead of with the session rows (include=messages)
  --full                 load a fresh bulk snapshot export first, replacing the copy (a first run
                         does so by default)
  --no-snapshot          a first run pages through the lists instead of loading a snapshot export
The key: EXPORT_SYNC_KEY, or --key-file <file> (its first line), or --key <key> (visible in the
process list and in the command line npm prints: avoid it).
Exit code: 0 ok (or a loop stopped by a signal), 1 the pass failed, 2 usage error or target in use.`;

function fail(message: string, code: number, usage = false): never {
  console.log(JSON.stringify({ ok: false, error: { code: 'cli_error', message } }));
  if (usage) console.error(USAGE);
  process.exit(code);
}

/** `30s`, `5m`, `1h` in milliseconds; a bare number is refused, so a unit is never guessed. */
function parseDuration(flag: string, text: string): number {
  const m = /^([1-9]\d*)(s|m|h)$/.exec(text.trim());
  if (!m) {
    const hint = /^\d+$/.test(text.trim())
      ? `a bare number has no unit: write ${text.trim()}s, ${text.trim()}m or ${text.trim()}h`
      : 'write a whole number with s, m or h, e.g. 30s, 5m or 1h';
    fail(`${flag} ${JSON.stringify(text)} is not a duration: ${hint}`, 2, true);
  }
  return Number(m[1]) * { s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 's' | 'm' | 'h'];
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** One client per directory: two runs writing the same copy would lose each other's checkpoints. */
function lockDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, '.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(file);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) fail(`${dir} is in use by process ${holder}`, 2);
      unlinkSync(file); // left behind by a process that is gone
    }
  }
  fail(`cannot lock ${dir}`, 2);
}

/** The store for the target; DuckDB locks its own file (a second client fails to open it). */
async function openTarget(values: { dir?: string; duckdb?: string; 'duckdb-memory'?: string }): Promise<{ store: LocalStore; release: () => Promise<void> }> {
  const memoryLimit = values['duckdb-memory'];
  if (memoryLimit !== undefined) {
    if (values.duckdb === undefined) fail('--duckdb-memory sizes the DuckDB target: give --duckdb <file> too', 2, true);
    if (!/^[1-9]\d*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/.test(memoryLimit))
      fail(`--duckdb-memory ${JSON.stringify(memoryLimit)} is not a size: write e.g. 256MB or 2GB`, 2, true);
  }
  if (values.duckdb === undefined) {
    const dir = values.dir ?? '.export-sync';
    const unlock = lockDir(dir);
    return { store: new JsonDirStore(dir), release: async () => unlock() };
  }
  mkdirSync(dirname(values.duckdb), { recursive: true });
  try {
    const store = await DuckDbStore.open(values.duckdb, { memoryLimit });
    return { store, release: () => store.close() };
  } catch (err) {
    fail(`cannot open ${values.duckdb}: ${err instanceof Error ? err.message : String(err)}`, 2);
  }
}

function errorLine(err: unknown): object {
  if (err instanceof ExportApiError) return { ok: false, error: { status: err.status, path: err.path, message: err.message, body: err.body } };
  return { ok: false, error: { message: err instanceof Error ? err.message : String(err) } };
}

/**
 * The key: `--key-file` (its first line), `EXPORT_SYNC_KEY`, or `--key`. The first two keep it out of
 * the process list and out of the command line npm and schedulers echo into their logs.
 */
function keyFrom(values: { key?: string; 'key-file'?: string }): string {
  const given = [values.key !== undefined, values['key-file'] !== undefined].filter(Boolean).length;
  if (given > 1) fail('--key and --key-file name two keys: give one', 2, true);
  if (values['key-file'] !== undefined) {
    let text: string;
    try {
      text = readFileSync(values['key-file'], 'utf8');
    } catch (err) {
      fail(`cannot read --key-file ${values['key-file']}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, 2);
    }
    const key = text.split(/\r?\n/)[0]!.trim();
    if (!key) fail(`--key-file ${values['key-file']} is empty: put the key on its first line`, 2);
    return key;
  }
  if (values.key !== undefined) {
    console.error('export-sync: --key shows the key in the process list and in the command line npm prints; prefer EXPORT_SYNC_KEY or --key-file');
    return values.key;
  }
  const env = process.env.EXPORT_SYNC_KEY?.trim();
  if (!env) fail('a key is required: EXPORT_SYNC_KEY, --key-file <file> or --key', 2, true);
  return env;
}

function parse() {
  try {
    return parseArgs({
      options: {
        'base-url': { type: 'string' },
        key: { type: 'string' },
        'key-file': { type: 'string' },
        'per-session': { type: 'boolean', default: false },
        full: { type: 'boolean', default: false },
        'no-snapshot': { type: 'boolean', default: false },
        dir: { type: 'string' },
        duckdb: { type: 'string' },
        'duckdb-memory': { type: 'string' },
        every: { type: 'string' },
        once: { type: 'boolean', default: false },
        interval: { type: 'string' },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    }).values;
  } catch (err) {
    fail((err as Error).message, 2, true);
  }
}

async function main(): Promise<void> {
  const values = parse();
  if (values.help) {
    console.error(USAGE);
    return;
  }
  const baseUrl = values['base-url'];
  if (!baseUrl || !/^https?:\/\//.test(baseUrl)) fail('--base-url must be an http(s) URL', 2, true);
  const key = keyFrom(values);
  if (values.dir !== undefined && values.duckdb !== undefined) fail('--dir and --duckdb name two targets: choose one', 2, true);
  if (values.full && values['no-snapshot']) fail('--full and --no-snapshot contradict each other: give one', 2, true);
  if (values.interval !== undefined) {
    if (values.every !== undefined) fail('--interval is a deprecated alias of --every: give only --every', 2, true);
    console.error(`export-sync: --interval is deprecated and will be removed; use --every ${values.interval}s`);
  }
  const everyText = values.every ?? (values.interval !== undefined ? `${values.interval}s` : undefined);
  const everyMs = everyText === undefined ? undefined : parseDuration(values.every !== undefined ? '--every' : '--interval', everyText);
  if (everyMs !== undefined && values.once)
    fail(`--once and ${values.every !== undefined ? '--every' : '--interval'} contradict each other: give one`, 2, true);

  const { store, release } = await openTarget(values);
  let stopping: NodeJS.Signals | undefined;
  let wake: (() => void) | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second signal: abort now. Every commit is atomic, so the copy stays at its last checkpoint.
      console.error(`export-sync: ${signal} again, aborting`);
      void release().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
      return;
    }
    stopping = signal;
    console.error(`export-sync: ${signal}: stopping after the current pass (send it again to abort)`);
    wake?.();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const deps = {
    transport: fetchTransport(baseUrl, key),
    store,
    transcripts: values['per-session'] ? ('per-session' as const) : ('inline' as const),
    firstLoad: values['no-snapshot'] ? ('pages' as const) : ('snapshot' as const),
    full: values.full,
    onProgress: values.quiet ? undefined : progressPrinter((line) => process.stderr.write(`${line}\n`)),
  };
  let passes = 0;
  let lastOk = false;
  try {
    for (;;) {
      passes++;
      try {
        const summary = await syncOnce(deps);
        console.log(JSON.stringify(summary));
        if (summary.apps.skipped) console.error(`export-sync: apps not synced: ${summary.apps.skipped}`);
        lastOk = true;
      } catch (err) {
        console.log(JSON.stringify(errorLine(err)));
        lastOk = false;
      }
      if (everyMs === undefined || stopping) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, everyMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (stopping) break;
    }
  } finally {
    await release();
  }
  if (everyMs === undefined) {
    process.exitCode = lastOk ? 0 : 1;
    return;
  }
  console.log(JSON.stringify({ ok: true, stopped: stopping, passes, last_pass_ok: lastOk }));
  process.exitCode = 0;
}

await main();
