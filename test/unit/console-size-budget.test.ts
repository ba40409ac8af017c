/**
 * The console's first page stays small: the JavaScript its index.html loads (and every chunk that
 * one imports statically) is at most 150 KB gzipped. The build is the one the global setup made.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CONSOLE_BUILD_DIR } from '../../functions/local/console-build';

const BUDGET_BYTES = 150 * 1024;

const assetsOf = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1]!);

/** The first page's scripts: the entries of index.html and their static imports, transitively. */
function firstPageScripts(): string[] {
  const html = readFileSync(join(CONSOLE_BUILD_DIR, 'index.html'), 'utf8');
  const seen = new Set<string>();
  const queue = assetsOf(html, /<script[^>]*\bsrc="\/console\/assets\/([^"]+\.js)"/g);
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
    const gzipped = scripts.reduce((sum, name) => sum + gzipSync(readFileSync(join(CONSOLE_BUILD_DIR, 'assets', name)), { level: 9 }).length, 0);
    console.info(`console first page: ${scripts.length} script(s), ${(gzipped / 1024).toFixed(1)} KB gzipped`);
    expect(gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('has no inline script or style in its index.html (the CSP allows none)', () => {
    const html = readFileSync(join(CONSOLE_BUILD_DIR, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
    expect(html).not.toMatch(/https?:\/\//);
  });
});
