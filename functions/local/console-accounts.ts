/**
 * The people who can sign in to the local console: one per role of the demo org, and a newcomer in no
 * org (someone to invite), with passwords made on the first start and kept in the data folder (mode
 * 0600) so later starts print the same ones. Roles are the platform's own data; this list only tells
 * which person to try each role with.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export const CONSOLE_ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;

export interface ConsoleUser {
  /** The person's role in the demo org; null for the newcomer, who is in no org until invited. */
  readonly role: (typeof CONSOLE_ROLES)[number] | null;
  readonly email: string;
  readonly password: string;
  /** The `sub` the embedded provider gives this person. */
  readonly subject: string;
}

const seeded = (role: ConsoleUser['role'], name: string): ConsoleUser => ({
  role,
  email: `${name}@demo.local`,
  password: randomBytes(12).toString('base64url'),
  subject: `demo-${name}`,
});

/** The seeded people: one per role, then the newcomer. */
const SEEDED = (): ConsoleUser[] => [...CONSOLE_ROLES.map((role) => seeded(role, role)), seeded(null, 'newcomer')];

export function loadConsoleUsers(file: string): ConsoleUser[] {
  if (existsSync(file)) return withNewcomer(file, JSON.parse(readFileSync(file, 'utf8')) as ConsoleUser[]);
  const users = SEEDED();
  try {
    writeFileSync(file, `${JSON.stringify(users, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return JSON.parse(readFileSync(file, 'utf8')) as ConsoleUser[];
  }
  return users;
}

/** A data folder from before the newcomer existed gains them; the others keep their passwords. */
function withNewcomer(file: string, users: ConsoleUser[]): ConsoleUser[] {
  const missing = SEEDED().filter((s) => !users.some((u) => u.subject === s.subject));
  if (missing.length === 0) return users;
  const all = [...users, ...missing];
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  return all;
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** The user these credentials name, compared in constant time; undefined for a wrong e-mail or password. */
export function checkPassword(users: readonly ConsoleUser[], email: string, password: string): ConsoleUser | undefined {
  const user = users.find((u) => u.email === email.trim().toLowerCase());
  const ok = timingSafeEqual(digest(user?.password ?? randomBytes(12).toString('base64url')), digest(password));
  return user && ok ? user : undefined;
}
