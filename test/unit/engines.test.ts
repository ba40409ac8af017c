/**
 * A clean install on the Node version the README states: every package `npm ci` installs (optional
 * platform binaries aside, which npm skips quietly) accepts the `engines.node` floor of package.json, so
 * `npm ci` prints no EBADENGINE warning. A dependency bump that raises the floor fails here first.
 */
import { readFileSync } from 'node:fs';
import { minVersion, satisfies } from 'semver';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
};

describe('engines', () => {
  const floor = minVersion(pkg.engines.node)!.version;

  it('the README states the same Node floor as package.json', () => {
    expect(readFileSync('README.md', 'utf8')).toContain(`Node.js ${floor.replace(/\.0$/, '')}`);
  });

  it(`every installed package accepts Node ${floor}`, () => {
    const refused = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && !p.optional && p.engines && !Array.isArray(p.engines) && p.engines.node)
      .filter(([, p]) => !satisfies(floor, (p.engines as { node: string }).node))
      .map(([path, p]) => `${path}: node ${(p.engines as { node: string }).node}`);
    expect(refused).toEqual([]);
  });
});
