/**
 * `npm run export-sync` as a scheduler runs it: the real command (tsx functions/cli/export-sync.ts) in
 * a child process against a local platform. One pass and exit 0 by default, with one JSON line on
 * stdout and progress on stderr; the DuckDB target, queried with SQL afterwards, and its lock; usage
 * errors (exit 2); the `--every` loop stopped by SIGTERM after its pass. And the progress throttle.
 */
import { spawn } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { progressPrinter } from '../../functions/cli/export-sync/progress';
import { TestClock } from '../support/clock';
import { seedSessions } from '../support/imports';
import { startTestPlatform, type Fixture, type TestPlatform } from '../support/platform';

const VISIBILITY_DELAY_MS = 1000;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts the command as `npx tsx functions/cli/export-sync.ts …`. With `onStdout`, which sees stdout
 * as it grows to signal the process mid-run, it starts `node --import tsx …` instead: npx (like
 * `npm run`) exits on SIGTERM without passing it on, so a supervisor signals the node process itself.
 */
function cli(args: string[], env: NodeJS.ProcessEnv = {}, onStdout?: (text: string, kill: (s: NodeJS.Signals) => void) => void): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'functions/cli/export-sync.ts', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = { stdout: '', stderr: '' };
    child.stdout.on('data', (d: Buffer) => {
      out.stdout += d.toString();
      onStdout?.(out.stdout, (s) => child.kill(s));
    });
    child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, ...out }));
  });
}

const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');
const jsonLines = (text: string) => lines(text).map((l) => JSON.parse(l) as Record<string, any>);

describe('npm run export-sync', () => {
  let clock: TestClock;
  let p: TestPlatform;
  let f: Fixture;
  let ids: string[];
  const dirs: string[] = [];
  const newDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'export-sync-cli-'));
    dirs.push(d);
    return d;
  };
  const target = () => ['--base-url', p.baseUrl];
  const keyEnv = () => ({ EXPORT_SYNC_KEY: f.orgKey });

  beforeAll(async () => {
    clock = new TestClock();
    p = await startTestPlatform({ clock, visibilityDelayMs: VISIBILITY_DELAY_MS });
    f = await p.fixture();
    ids = await seedSessions(
      p,
      f.appId,
      Array.from({ length: 12 }, (_, i) => ({ email: `user${i % 3}@example.com`, messages: ['2026-01-01T00:00:01Z', '2026-01-01T00:00:02Z'] })),
    );
    clock.advance(VISIBILITY_DELAY_MS + 100);
  });
  afterAll(async () => {
    await p?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('loads a first run from a snapshot export, then passes incrementally from its watermark; one JSON line, progress on stderr', async () => {
    const snapshotDir = join(newDir(), 'copy');
    const first = await cli([...target(), '--dir', snapshotDir], keyEnv());
    expect(first.code, first.stderr).toBe(0);
    const [loaded] = jsonLines(first.stdout);
    expect(loaded).toMatchObject({
      ok: true,
      snapshot: { files: 4, rows: 1 + 12 },
      sessions: { seen: 0 },
      requests: { downloads: 4 },
      copy: { apps: 1, sessions: 12, messages: 24 },
    });
    expect(loaded!.sessions.checkpoint).toBe(loaded!.snapshot.updated_after);
    expect(first.stderr).toMatch(/^export-sync: snapshot sessions 12 rows, .*: done$/m);
    // A later run has a copy: no snapshot, only the incremental passes.
    const again = await cli([...target(), '--dir', snapshotDir, '--quiet'], keyEnv());
    expect(jsonLines(again.stdout)).toEqual([expect.objectContaining({ ok: true, snapshot: null })]);

    const dir = join(newDir(), 'copy');
    const run = await cli([...target(), '--dir', dir, '--no-snapshot'], keyEnv());
    expect(run.code, run.stderr).toBe(0);
    const [summary, ...more] = jsonLines(run.stdout);
    expect(more).toEqual([]);
    expect(summary).toMatchObject({
      ok: true,
      snapshot: null,
      apps: { seen: 1 },
      sessions: { seen: 12, transcripts: 0 },
      copy: { apps: 1, sessions: 12, messages: 24 },
    });
    for (const list of ['apps', 'sessions', 'messages', 'tombstones', 'usage']) {
      expect(run.stderr).toMatch(new RegExp(`^export-sync: ${list} \\d+ rows, \\d+ rows/s \\(\\d+\\.\\d s\\): done$`, 'm'));
    }
    expect(run.stderr).toMatch(/^export-sync: sessions 12 rows, .*: done$/m);
    expect(run.stderr).toMatch(/^export-sync: messages 24 rows, .*: done$/m);

    const quiet = await cli([...target(), '--dir', dir, '--once', '--quiet'], keyEnv());
    expect(quiet.code).toBe(0);
    expect(jsonLines(quiet.stdout)).toEqual([expect.objectContaining({ ok: true, sessions: expect.objectContaining({ transcripts: 0 }) })]);
    // (npx itself may warn about the npm config on stderr.)
    expect(lines(quiet.stderr).filter((l) => l.startsWith('export-sync:'))).toEqual([]);
  });

  it('--duckdb writes tables that SQL reads afterwards, and refuses a file another process holds (exit 2)', async () => {
    const file = join(newDir(), 'nested', 'warehouse.duckdb');
    const run = await cli([...target(), '--duckdb', file], keyEnv());
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stdout)).toEqual([expect.objectContaining({ ok: true, copy: expect.objectContaining({ sessions: 12, messages: 24 }) })]);

    const instance = await DuckDBInstance.create(file);
    const db = await instance.connect();
    const rows = async (sql: string) => (await db.runAndReadAll(sql)).getRowObjectsJson();
    expect((await rows('SELECT id FROM sessions ORDER BY id')).map((r) => r.id)).toEqual([...ids].sort());
    expect(await rows("SELECT count(*) AS n, count(DISTINCT session_id) AS s FROM messages WHERE role IN ('user', 'assistant')")).toEqual([
      { n: '24', s: '12' },
    ]);
    expect(await rows('SELECT s.consumer_email, count(m.id) AS messages FROM sessions s JOIN messages m ON m.session_id = s.id GROUP BY 1 ORDER BY 1')).toEqual(
      [
        { consumer_email: 'user0@example.com', messages: '8' },
        { consumer_email: 'user1@example.com', messages: '8' },
        { consumer_email: 'user2@example.com', messages: '8' },
      ],
    );
    expect(await rows('SELECT name, slug FROM apps')).toEqual([{ name: 'Test App', slug: expect.any(String) }]);
    expect((await rows("SELECT value FROM sync_checkpoint WHERE name = 'sessions'"))[0]!.value).toBe(jsonLines(run.stdout)[0]!.sessions.checkpoint);

    // This process now holds the file: a client started meanwhile answers one error line, exit 2.
    const locked = await cli([...target(), '--duckdb', file], keyEnv());
    expect(locked.code).toBe(2);
    const [line, ...rest] = jsonLines(locked.stdout);
    expect(rest).toEqual([]);
    expect(line).toMatchObject({ ok: false, error: { code: 'cli_error', message: expect.stringMatching(/in use by another process/) } });
    db.closeSync();
    instance.closeSync();
  });

  // Each case is its own process, and none shares state with another: they run at once.
  it.concurrent.each([
    [['--every', '30'], /a bare number has no unit: write 30s, 30m or 30h/],
    [['--every', '5x'], /is not a duration/],
    [['--every', '1m', '--once'], /--once and --every contradict each other/],
    [['--interval', '60', '--once'], /--once and --interval contradict each other/],
    [['--dir', 'a', '--duckdb', 'b.duckdb'], /--dir and --duckdb name two targets/],
    [['--frequency', '5m'], /Unknown option '--frequency'/],
    [['--duckdb-memory', '1GB'], /--duckdb-memory sizes the DuckDB target: give --duckdb <file> too/],
    [['--duckdb', 'never-opened.duckdb', '--duckdb-memory', 'lots'], /--duckdb-memory "lots" is not a size: write e.g. 256MB or 2GB/],
  ])('%j is a usage error: exit 2, one error line, the usage on stderr', async (args, message) => {
    const run = await cli([...target(), ...args], keyEnv());
    expect(run.code).toBe(2);
    expect(jsonLines(run.stdout)).toEqual([{ ok: false, error: { code: 'cli_error', message: expect.stringMatching(message) } }]);
    expect(run.stderr).toContain('usage: npm run export-sync');
    if (args[0] === '--interval') expect(run.stderr).toContain('--interval is deprecated');
  });

  it('takes the key from --key-file (its first line), warns about --key, and refuses two keys, an empty file or none', async () => {
    const dir = newDir();
    const keyFile = join(dir, 'org-key');
    writeFileSync(keyFile, `${f.orgKey}\n# the org export key\n`);
    const fromFile = await cli([...target(), '--dir', join(dir, 'copy'), '--key-file', keyFile, '--quiet'], { EXPORT_SYNC_KEY: '' });
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(jsonLines(fromFile.stdout)).toEqual([expect.objectContaining({ ok: true })]);
    expect(fromFile.stderr).not.toContain(f.orgKey);

    const flag = await cli([...target(), '--dir', join(dir, 'copy'), '--key', f.orgKey, '--quiet'], { EXPORT_SYNC_KEY: '' });
    expect(flag.code).toBe(0);
    expect(flag.stderr).toContain('--key shows the key in the process list');

    // The refusals read no target and share nothing: their processes run at once.
    const emptyFile = join(dir, 'empty');
    writeFileSync(emptyFile, '\n');
    const [both, empty, missing, none] = await Promise.all([
      cli([...target(), '--key', f.orgKey, '--key-file', keyFile], { EXPORT_SYNC_KEY: '' }),
      cli([...target(), '--key-file', emptyFile], { EXPORT_SYNC_KEY: '' }),
      cli([...target(), '--key-file', join(dir, 'nope')], { EXPORT_SYNC_KEY: '' }),
      cli(target(), { EXPORT_SYNC_KEY: '' }),
    ]);
    expect(both.code).toBe(2);
    expect(jsonLines(both.stdout)).toEqual([{ ok: false, error: { code: 'cli_error', message: '--key and --key-file name two keys: give one' } }]);
    expect(empty.code).toBe(2);
    expect(jsonLines(empty.stdout)[0]!.error.message).toMatch(/is empty: put the key on its first line/);
    expect(jsonLines(missing.stdout)[0]!.error.message).toMatch(/cannot read --key-file .*ENOENT/);
    expect(none.code).toBe(2);
    expect(jsonLines(none.stdout)[0]!.error.message).toBe('a key is required: EXPORT_SYNC_KEY, --key-file <file> or --key');
  });

  it('--per-session reads each transcript on its own: the same copy, more requests', async () => {
    const inline = await cli([...target(), '--dir', join(newDir(), 'copy'), '--quiet', '--no-snapshot'], keyEnv());
    const perSession = await cli([...target(), '--dir', join(newDir(), 'copy'), '--quiet', '--per-session', '--no-snapshot'], keyEnv());
    const [a, b] = [jsonLines(inline.stdout)[0]!, jsonLines(perSession.stdout)[0]!];
    expect(a.copy).toEqual(b.copy);
    expect(a.sessions.transcripts).toBe(0);
    expect(b.sessions.transcripts).toBe(12);
    expect(b.requests.total - a.requests.total).toBe(12);
  });

  it('--every loops until SIGTERM, which stops it after the current pass with a final line and exit 0', async () => {
    const dir = join(newDir(), 'copy');
    let signalled = false;
    const run = await cli([...target(), '--dir', dir, '--every', '1s', '--quiet'], keyEnv(), (text, kill) => {
      if (!signalled && lines(text).length >= 2) {
        signalled = true;
        kill('SIGTERM');
      }
    });
    expect(run.code, run.stderr).toBe(0);
    const out = jsonLines(run.stdout);
    expect(out.length).toBeGreaterThanOrEqual(3);
    expect(out.slice(0, -1).every((s) => s.ok === true && typeof s.sessions?.seen === 'number')).toBe(true);
    expect(out.at(-1)).toEqual({ ok: true, stopped: 'SIGTERM', passes: out.length - 1, last_pass_ok: true });
    expect(run.stderr).toContain('SIGTERM: stopping after the current pass');
  });
});

describe('progress lines', () => {
  it('print at most one line every 2 s while lists are read, and one line when each list is done', () => {
    let now = 0;
    const out: string[] = [];
    const progress = progressPrinter((l) => out.push(l), { now: () => now });
    progress({ list: 'sessions', rows: 0, done: false });
    progress({ list: 'messages', rows: 0, done: false });
    for (let i = 1; i <= 50; i++) {
      now += 100;
      progress({ list: 'sessions', rows: i * 10, done: false });
      progress({ list: 'messages', rows: i * 40, done: false });
    }
    progress({ list: 'sessions', rows: 500, done: true });
    expect(out).toEqual([
      'export-sync: sessions 200 rows, 100 rows/s (2.0 s); messages 760 rows, 380 rows/s (2.0 s)',
      'export-sync: sessions 400 rows, 100 rows/s (4.0 s); messages 1560 rows, 390 rows/s (4.0 s)',
      'export-sync: sessions 500 rows, 100 rows/s (5.0 s): done',
    ]);
  });
});
