/**
 * `npm run bench -- export-client-memory [--sessions 20000] [--messages 10]`: the reference sync
 * client's peak memory on a first sync, at `--sessions`, four and sixteen times as many, into each store and
 * by each first-load path. Each measurement runs in a process of its own (bench/client-memory-child.ts)
 * against a synthetic org generated in process, and reports its peak resident memory; the bare process
 * (the same modules, nothing synced) is measured in the same run as the baseline. A client whose memory
 * does not grow with the org shows a ratio near 1 between two sizes (memory above the bare process) once
 * DuckDB has reached its memory limit.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { table } from './stats';

interface Measured {
  readonly peak_rss_mb: number;
  readonly seconds: number;
  readonly rows: number;
}

function measure(args: string[]): Measured {
  const out = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./client-memory-child.ts', import.meta.url)), ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (out.status !== 0) throw new Error(`client-memory-child ${args.join(' ')} failed (${out.status}): ${out.stderr}`);
  return JSON.parse(out.stdout.trim().split('\n').pop()!) as Measured;
}

export async function benchExportClientMemory(): Promise<void> {
  const { values } = parseArgs({ args: process.argv.slice(3), options: { sessions: { type: 'string' }, messages: { type: 'string' } }, strict: true });
  const sessions = Number(values.sessions ?? 20_000);
  const messages = Number(values.messages ?? 10);
  if (!Number.isInteger(sessions) || sessions < 1 || !Number.isInteger(messages) || messages < 0)
    throw new Error('--sessions and --messages must be whole numbers');
  const bare = measure(['--store', 'none', '--sessions', '1', '--messages', '0']);
  console.log(`bare process (Node, tsx, the client's modules, nothing synced): peak RSS ${bare.peak_rss_mb} MB`);
  const sizes = [sessions, sessions * 4, sessions * 16];
  const rows: Record<string, string | number>[] = [];
  const cases = [
    { store: 'duckdb', path: 'snapshot', sizes },
    { store: 'duckdb', path: 'pages', sizes },
    // The whole copy in memory: the largest size would need gigabytes, so it stops one size earlier.
    { store: 'json', path: 'snapshot', sizes: sizes.slice(0, 2) },
  ];
  const above = (m: Measured | undefined) => (m ? Math.max(1, m.peak_rss_mb - bare.peak_rss_mb) : Number.NaN);
  const ratio = (a: Measured | undefined, b: Measured | undefined) => (a && b ? `${(above(b) / above(a)).toFixed(2)}x` : '—');
  for (const c of cases) {
    const runs = c.sizes.map((n) => measure(['--store', c.store, '--path', c.path, '--sessions', String(n), '--messages', String(messages)]));
    const row: Record<string, string | number> = { store: c.store === 'json' ? 'json (whole copy in memory)' : 'duckdb', 'first load': c.path };
    sizes.forEach((n, i) => {
      row[`peak RSS MB @${n}`] = runs[i]?.peak_rss_mb ?? '—';
    });
    row[`×4: ${sizes[0]}→${sizes[1]}`] = ratio(runs[0], runs[1]);
    row[`×4: ${sizes[1]}→${sizes[2]}`] = ratio(runs[1], runs[2]);
    const last = runs[runs.length - 1]!;
    row['rows/s (largest)'] = Math.round(last.rows / last.seconds);
    rows.push(row);
  }
  table(rows);
  console.log(
    `(sessions of ${messages} messages; rows are sessions + messages; a ×4 ratio is the peak above the bare process at the larger size over the same at the smaller; DuckDB's memory limit is the store's default)`,
  );
}
