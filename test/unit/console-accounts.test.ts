/** The local provider's seeded people: one per role of the demo org and a newcomer in no org, kept across starts. */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConsoleUsers } from '../../functions/local/console-accounts';

describe('the local console accounts', () => {
  const dirs: string[] = [];
  const fileIn = () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-accounts-'));
    dirs.push(dir);
    return join(dir, 'console-users.json');
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('seeds one person per role and newcomer@demo.local in no org, and loads the same people again', () => {
    const file = fileIn();
    const first = loadConsoleUsers(file);
    expect(first.map((u) => [u.role, u.email, u.subject])).toEqual([
      ['owner', 'owner@demo.local', 'demo-owner'],
      ['admin', 'admin@demo.local', 'demo-admin'],
      ['developer', 'developer@demo.local', 'demo-developer'],
      ['viewer', 'viewer@demo.local', 'demo-viewer'],
      [null, 'newcomer@demo.local', 'demo-newcomer'],
    ]);
    expect(loadConsoleUsers(file)).toEqual(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('adds the newcomer to a data folder from before them, keeping the others’ passwords', () => {
    const file = fileIn();
    const before = loadConsoleUsers(file).filter((u) => u.role !== null);
    writeFileSync(file, JSON.stringify(before), { mode: 0o600 });
    const after = loadConsoleUsers(file);
    expect(after.slice(0, 4)).toEqual(before);
    expect(after[4]).toMatchObject({ role: null, email: 'newcomer@demo.local' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(after);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
