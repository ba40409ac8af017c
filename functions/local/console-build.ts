/**
 * Builds the web console (the top-level `console/` folder) with Vite when its sources changed since the
 * last build: a digest of every source file and of the lockfile is kept beside the output, so a fresh
 * clone builds once and later starts skip it. The output is written aside and moved in place whole, so
 * a server or a test never reads a half-written build.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const CONSOLE_SOURCE_DIR = join(ROOT, 'console');
/** What the local server serves under /console/ (gitignored). */
export const CONSOLE_BUILD_DIR = join(CONSOLE_SOURCE_DIR, 'dist');
const DIGEST_FILE = '.source-digest';
const SKIPPED = new Set(['dist', 'node_modules']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => !SKIPPED.has(e.name) && !e.name.startsWith('.'))
    .flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : [join(dir, e.name)]))
    .sort();
}

export function consoleSourceDigest(): string {
  const hash = createHash('sha256');
  for (const file of [...sourceFiles(CONSOLE_SOURCE_DIR), join(ROOT, 'package-lock.json')]) {
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

const builtDigest = (): string | undefined => {
  const file = join(CONSOLE_BUILD_DIR, DIGEST_FILE);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
};

export interface ConsoleBuildResult {
  readonly built: boolean;
  readonly ms: number;
}

/** Builds the console unless the build in place comes from the same sources. */
export async function ensureConsoleBuilt(): Promise<ConsoleBuildResult> {
  const started = performance.now();
  const digest = consoleSourceDigest();
  if (builtDigest() === digest) return { built: false, ms: performance.now() - started };
  const staging = join(CONSOLE_SOURCE_DIR, `.dist-${process.pid}-${Date.now()}`);
  try {
    const { build } = await import('vite');
    await build({
      configFile: join(CONSOLE_SOURCE_DIR, 'vite.config.ts'),
      root: CONSOLE_SOURCE_DIR,
      logLevel: 'warn',
      build: { outDir: staging, emptyOutDir: true },
    });
    writeFileSync(join(staging, DIGEST_FILE), `${digest}\n`);
    // Another process may have finished the same build meanwhile: either copy is good.
    if (builtDigest() !== digest) {
      rmSync(CONSOLE_BUILD_DIR, { recursive: true, force: true });
      try {
        renameSync(staging, CONSOLE_BUILD_DIR);
      } catch (err) {
        if (builtDigest() !== digest) throw err;
      }
    }
  } finally {
    if (existsSync(staging) && statSync(staging).isDirectory()) rmSync(staging, { recursive: true, force: true });
  }
  return { built: true, ms: performance.now() - started };
}
