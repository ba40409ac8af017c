/**
 * `npm run export-sync -- --base-url <url> --key svc_org_… [--dir .export-sync] [--once] [--interval 300]`:
 * the reference Org Export sync client (functions/cli/export-sync/sync-client.ts) as a command. Keeps a
 * local copy (sessions with transcripts, usage rows, checkpoints) as JSON files under --dir and prints
 * one JSON summary line per run. Without --once it runs again every --interval seconds until stopped.
 *
 * The key may come from EXPORT_SYNC_KEY instead of --key, which keeps it out of the process list.
 * Exit code: 0 after a successful --once run, 1 when the run failed, 2 on a usage error.
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ExportApiError, fetchTransport } from './export-sync/export-api';
import { JsonDirStore } from './export-sync/local-store';
import { syncOnce } from './export-sync/sync-client';

const USAGE = 'usage: npm run export-sync -- --base-url <url> --key <svc_org_…> [--dir .export-sync] [--once] [--interval <seconds>]';

function fail(message: string, code: number): never {
  console.log(JSON.stringify({ ok: false, error: { code: 'cli_error', message } }));
  process.exit(code);
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

function errorLine(err: unknown): object {
  if (err instanceof ExportApiError) return { ok: false, error: { status: err.status, path: err.path, message: err.message, body: err.body } };
  return { ok: false, error: { message: err instanceof Error ? err.message : String(err) } };
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        'base-url': { type: 'string' },
        key: { type: 'string' },
        dir: { type: 'string', default: '.export-sync' },
        once: { type: 'boolean', default: false },
        interval: { type: 'string', default: '300' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`, 2);
  }
  if (values.help) {
    console.error(USAGE);
    return;
  }
  const baseUrl = values['base-url'];
  const key = values.key ?? process.env.EXPORT_SYNC_KEY;
  if (!baseUrl || !/^https?:\/\//.test(baseUrl)) fail(`--base-url must be an http(s) URL\n${USAGE}`, 2);
  if (!key) fail(`--key (or EXPORT_SYNC_KEY) is required\n${USAGE}`, 2);
  const intervalMs = Number(values.interval) * 1000;
  if (!Number.isFinite(intervalMs) || intervalMs < 1000) fail('--interval must be at least 1 (seconds)', 2);

  const release = lockDir(values.dir);
  let stopping = false;
  let wake: (() => void) | undefined;
  const stop = () => {
    stopping = true;
    wake?.();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  const deps = { transport: fetchTransport(baseUrl, key), store: new JsonDirStore(values.dir) };
  let failed = false;
  try {
    do {
      try {
        console.log(JSON.stringify(await syncOnce(deps)));
        failed = false;
      } catch (err) {
        console.log(JSON.stringify(errorLine(err)));
        failed = true;
      }
      if (values.once || stopping) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, intervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    } while (!stopping);
  } finally {
    release();
  }
  process.exitCode = failed ? 1 : 0;
}

await main();
