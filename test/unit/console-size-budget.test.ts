/**
 * The console stays light: the JavaScript its index.html loads (and every chunk that one imports
 * statically) is at most 150 KB gzipped, and each further page adds at most 80 KB (its chunk and the
 * chunks it imports that the first page did not load). The build is the one the global setup made.
 */
import { readdirSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CONSOLE_BUILD_DIR } from '../../functions/local/console-build';

const BUDGET_BYTES = 150 * 1024;
const ROUTE_BUDGET_BYTES = 80 * 1024;

const assetsOf = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1]!);

/** The first page's scripts: the entries of index.html and their static imports, transitively. */
function firstPageScripts(): string[] {
  const html = readFileSync(join(CONSOLE_BUILD_DIR, 'index.html'), 'utf8');
  return staticClosure(assetsOf(html, /<script[^>]*\bsrc="\/console\/assets\/([^"]+\.js)"/g));
}

const gzippedSize = (names: readonly string[]) =>
  names.reduce((sum, name) => sum + gzipSync(readFileSync(join(CONSOLE_BUILD_DIR, 'assets', name)), { level: 9 }).length, 0);

/** `entries` and every chunk they import statically, transitively. */
function staticClosure(entries: readonly string[]): string[] {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const code = readFileSync(join(CONSOLE_BUILD_DIR, 'assets', name), 'utf8');
    queue.push(...assetsOf(code, /\bimport\s*(?:[\w{}\s,*$]+from\s*)?["']\.\/([^"']+\.js)["']/g));
  }
  return [...seen];
}

describe('the console bundle', () => {
  it('loads at most 150 KB of gzipped JavaScript on its first page', () => {
    const scripts = firstPageScripts();
    expect(scripts.length).toBeGreaterThan(0);
    const gzipped = gzippedSize(scripts);
    console.info(`console first page: ${scripts.length} script(s), ${(gzipped / 1024).toFixed(1)} KB gzipped`);
    expect(gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('adds at most 80 KB of gzipped JavaScript for each further page', () => {
    const first = new Set(firstPageScripts());
    const lazy = readdirSync(join(CONSOLE_BUILD_DIR, 'assets')).filter((n) => n.endsWith('.js') && !first.has(n));
    expect(lazy.length).toBeGreaterThanOrEqual(8);
    const sizes = lazy.map((name) => ({ name, gzipped: gzippedSize(staticClosure([name]).filter((n) => !first.has(n))) }));
    const largest = Math.max(...sizes.map((s) => s.gzipped));
    console.info(`console pages: ${lazy.length} lazy chunk(s), the largest adds ${(largest / 1024).toFixed(1)} KB gzipped`);
    for (const { name, gzipped } of sizes) expect(gzipped, name).toBeLessThanOrEqual(ROUTE_BUDGET_BYTES);
  });

  it('has no inline script or style in its index.html (the CSP allows none)', () => {
    const html = readFileSync(join(CONSOLE_BUILD_DIR, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
    expect(html).not.toMatch(/https?:\/\//);
  });
});
