/**
 * Helpers for the Org Export API (area A) tests: the error body, the wire timestamp form, a pass over
 * every page of a list, cursor forgeries, a way to put a pinned TestClock on an exact microsecond, a
 * platform on such a clock, and rows written straight through the stores.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TurnUsage } from '../../functions/chat/app/record-session-activity';
import type { Session } from '../../functions/conversations/domain/session';
import { tombstoneIdOf, type Tombstone, type TombstoneCause } from '../../functions/conversations/domain/tombstone';
import type { UsageRow } from '../../functions/conversations/domain/usage';
import type { PlatformOptions } from '../../functions/local/local-platform';
import { TestClock } from './clock';
import { usePlatform, type TestPlatform, type TestResponse } from './platform';

/** Every timestamp of area A on the wire: UTC, exactly three fractional digits. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const ALL_SCOPES = ['apps:read', 'transcripts:read', 'usage:read', 'tombstones:read'] as const;

/** The spec's example messages for malformed filters. */
export const timestampMessage = (param: string) => `Invalid ${param}: must be an ISO 8601 timestamp (e.g. 2026-01-31T12:00:00.000Z)`;
export const APP_ID_MESSAGE = 'Invalid app_id: must be a UUID (e.g. 123e4567-e89b-12d3-a456-426614174000)';

/**
 * The exact area A error body. `code` undefined accepts any string: the spec leaves the codes of 401,
 * 403, 404 and 429 open and fixes only `bad_request`.
 */
export function expectError(res: TestResponse, status: number, code?: string, message?: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toEqual({ error: { code: code ?? expect.any(String), message: message ?? expect.any(String) } });
  expect(res.body.error.message.length).toBeGreaterThan(0);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
}

/** The ids of a list page, in order. */
export const idsOf = <T extends string | number = string>(res: TestResponse): T[] => res.body.data.map((r: { id: T }) => r.id);

/** Sorts descending: ids of the same time are listed in this order (numeric for usage ids). */
export const descending = <T extends string | number>(a: T, b: T): number => (a < b ? 1 : a > b ? -1 : 0);

/** A stored microsecond value as the API must show it: floored to the millisecond. */
export function shownUs(us: number): string {
  return new Date(Math.floor(us / 1000)).toISOString();
}

/** Another key of the org (a fresh rate-limit window for tests that make many calls). */
export async function newKey(p: TestPlatform, orgId: string, scopes: readonly string[] = ALL_SCOPES): Promise<string> {
  const res = await p.admin('POST', `/orgs/${orgId}/keys`, { scopes });
  if (res.status !== 201) throw new Error(`key creation failed: ${res.text}`);
  return res.body.data.key as string;
}

export interface Page {
  readonly data: any[];
  readonly pagination: { next_cursor: string; has_more: boolean; limit: number };
}

/**
 * Follows `next_cursor` from the first page until `has_more` is false, checking on the way what every
 * pass may rely on: a cursor is always a fresh string while there is more, no page is longer than the
 * limit, and following the final cursor yields an empty page that ends the chain. `cursor` continues a
 * pass begun elsewhere.
 */
export async function pageThrough(p: TestPlatform, path: string, token: string, opts: { limit: number; cursor?: string; maxPages?: number }): Promise<Page[]> {
  const pages: Page[] = [];
  const seenCursors = new Set<string>();
  const sep = path.includes('?') ? '&' : '?';
  let cursor: string | undefined = opts.cursor;
  for (;;) {
    const url = `${path}${sep}limit=${opts.limit}${cursor !== undefined ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await p.call('GET', url, { token });
    expect(res.status, `${url}: ${res.text}`).toBe(200);
    const page = res.body as Page;
    expect(page.pagination.limit).toBe(opts.limit);
    expect(page.data.length).toBeLessThanOrEqual(opts.limit);
    expect(typeof page.pagination.next_cursor).toBe('string');
    expect(page.pagination.next_cursor.length).toBeGreaterThan(0);
    pages.push(page);
    if (!page.pagination.has_more) break;
    // has_more true always comes with a cursor that advances: never one seen before.
    expect(seenCursors.has(page.pagination.next_cursor), 'a repeated cursor would loop').toBe(false);
    seenCursors.add(page.pagination.next_cursor);
    cursor = page.pagination.next_cursor;
    if (pages.length > (opts.maxPages ?? 200)) throw new Error(`${path}: more than ${opts.maxPages ?? 200} pages`);
  }
  const last = pages[pages.length - 1]!;
  const after = await p.call('GET', `${path}${sep}limit=${opts.limit}&cursor=${encodeURIComponent(last.pagination.next_cursor)}`, { token });
  expect(after.status, after.text).toBe(200);
  expect(after.body.data).toEqual([]);
  expect(after.body.pagination.has_more).toBe(false);
  return pages;
}

/** Ways to damage a cursor: each must be a 400, never page one. */
export function forgedCursors(cursor: string): { name: string; value: string }[] {
  const [payload, signature] = cursor.split('.') as [string, string];
  const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
  // The last base64url character of a 32-byte signature carries two unused bits: changing only those
  // must still be refused (a cursor has one spelling).
  const last = signature[signature.length - 1]!;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const lowBits = alphabet[alphabet.indexOf(last) ^ 1]!;
  return [
    { name: 'payload first char flipped', value: `${flip(payload, 0)}.${signature}` },
    { name: 'payload last char flipped', value: `${flip(payload, payload.length - 1)}.${signature}` },
    { name: 'signature first char flipped', value: `${payload}.${flip(signature, 0)}` },
    { name: 'signature unused bits changed', value: `${payload}.${signature.slice(0, -1)}${lowBits}` },
    { name: 'truncated', value: cursor.slice(0, -5) },
    { name: 'signature dropped', value: payload },
    // Well-formed (a 43-character signature), so it reaches the signature check.
    { name: 'random', value: 'bm90LWEtY3Vyc29y.c2lnbmF0dXJlLXRoYXQtaXMtbm90LXJlYWxseS1vbmU' },
    { name: 'garbage', value: 'not a cursor' },
    { name: 'empty', value: '' },
  ];
}

/**
 * A pinned TestClock plus the microsecond its own time stands at, so a test can put the clock on an
 * exact microsecond. The pinned clock moves only by `advance`; a reading that would not move forward
 * returns the previous reading plus one microsecond, so readings drift ahead of the clock's own time.
 */
export class ClockDriver {
  private atUs: number;

  constructor(
    readonly clock: TestClock,
    startIso: string,
  ) {
    this.atUs = Date.parse(startIso) * 1000;
  }

  /** Moves the clock's own time by `ms` (readings that drifted past it continue from there). */
  advance(ms: number): void {
    this.clock.advance(ms);
    this.atUs += ms * 1000;
  }

  /** The millisecond boundary at least `ms` past the latest reading (takes one reading). */
  msAhead(ms: number): number {
    return (Math.floor(this.clock.nowUs() / 1000) + ms) * 1000;
  }

  /** Moves to `targetUs` exactly: the next reading returns it. Fails if a reading already passed it. */
  jumpTo(targetUs: number): void {
    const latest = this.clock.nowUs();
    const deltaUs = targetUs - this.atUs;
    if (!Number.isInteger(deltaUs) || targetUs <= latest) throw new Error(`cannot jump to ${targetUs} µs (latest reading ${latest})`);
    // Whole milliseconds, then the rest: k / 1000 * 1000 === k for every k below 1000, so the clock's
    // microseconds stay integers.
    this.advance(Math.floor(deltaUs / 1000));
    if (deltaUs % 1000) this.advance((deltaUs % 1000) / 1000);
  }

  /** Moves to the millisecond boundary at least `ms` ahead and returns it: the next reading. */
  stepMs(ms: number): number {
    const target = this.msAhead(ms);
    this.jumpTo(target);
    return target;
  }
}

/**
 * A platform for the enclosing describe on a pinned TestClock that starts at `startIso` (time moves only
 * by `advance`, plus one microsecond per reading); returns the ClockDriver that moves it. `bind` receives
 * the platform once it runs.
 */
export function pinnedPlatform(startIso: string, opts: Partial<PlatformOptions>, bind: (p: TestPlatform) => void): ClockDriver {
  const clock = new TestClock(startIso, false);
  usePlatform({ clock, ...opts }, bind);
  return new ClockDriver(clock, startIso);
}

/** The usage of one model call; `n` varies the counts and the cost. */
export const turnUsage = (n: number): TurnUsage => ({
  model: 'model-a',
  source: 'consumer',
  inputTokens: 100 + n,
  outputTokens: 20 + n,
  cacheReadInputTokens: n,
  cacheCreationInputTokens: 2 * n,
  costUsd: `0.00${n}15`,
});

/** A session written straight through the session store, started and touched at `atUs`: a cheap bulk row. */
export async function putSession(p: TestPlatform, f: { orgId: string; appId: string }, atUs: number, title = ''): Promise<Session> {
  const s: Session = {
    id: randomUUID(),
    orgId: f.orgId,
    appId: f.appId,
    consumerId: null,
    consumerEmail: null,
    title,
    source: 'APP',
    externalId: null,
    queryParams: [],
    startedAtUs: atUs,
    lastMessageAtUs: null,
    touchedAtUs: atUs,
  };
  await p.deps.sessions.create(s);
  return s;
}

/** A usage row written straight through the usage store, on an exact microsecond. */
export async function putUsageRow(p: TestPlatform, f: { orgId: string; appId: string }, createdAtUs: number, id?: number): Promise<UsageRow> {
  const row: UsageRow = {
    ...turnUsage(1),
    id: id ?? (await p.deps.usage.nextId()),
    orgId: f.orgId,
    appId: f.appId,
    sessionId: null,
    consumerId: null,
    createdAtUs,
  };
  await p.deps.usage.put(row);
  return row;
}

/** A tombstone written straight through the tombstone store, on an exact microsecond. */
export function putTombstone(p: TestPlatform, orgId: string, deletedAtUs: number, cause: TombstoneCause = 'consumer_deleted'): Promise<Tombstone> {
  return p.deps.tombstones.putOnce({
    id: tombstoneIdOf(deletedAtUs, randomBytes(6).toString('base64url').replace(/[-_]/g, 'x').slice(0, 8)),
    orgId,
    resourceType: 'session',
    resourceId: randomUUID(),
    cause,
    deletedAtUs,
  });
}
